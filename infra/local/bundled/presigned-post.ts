import { createHmac, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { signingKey } from './sigv4.ts';

/**
 * A browser's POST to a bucket (an S3 presigned POST), checked as S3 checks it: the policy's signature under the
 * signer's secret, its expiry, every condition (exact key, `Content-Type`, size range, bucket) and no form field
 * the policy does not name. The verdict says what to store, who signed it (the front then asks IAM whether the
 * signer may put that key), or the error S3 would answer.
 */
export interface PostedFile {
  readonly fields: ReadonlyMap<string, string>;
  readonly file: Buffer | undefined;
  /** The file was larger than the front reads (it is refused as too large whatever the policy says). */
  readonly truncated: boolean;
}

export type PostVerdict =
  | {
      readonly ok: true;
      readonly key: string;
      readonly contentType: string | undefined;
      readonly file: Buffer;
      readonly accessKeyId: string;
    }
  | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string };

/** Reads a multipart form; field names are case-insensitive in S3, so they are kept lower-cased. */
export function readPostedForm(body: Buffer, contentType: string, maxFileBytes: number): Promise<PostedFile> {
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let file: Buffer | undefined;
    let truncated = false;
    const parser = busboy({ headers: { 'content-type': contentType }, limits: { fileSize: maxFileBytes } });
    parser.on('field', (name, value) => fields.set(name.toLowerCase(), value));
    parser.on('file', (_name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        truncated = true;
      });
      stream.on('end', () => {
        file = Buffer.concat(chunks);
      });
    });
    parser.on('close', () => resolve({ fields, file, truncated }));
    parser.on('error', reject);
    Readable.from(body).pipe(parser);
  });
}

type Condition = Record<string, string> | [string, string | number, string | number];

const refused = (status: number, code: string, message: string): PostVerdict => ({
  ok: false,
  status,
  code,
  message,
});
const policyFailed = (detail: string) =>
  refused(403, 'AccessDenied', `Invalid according to Policy: ${detail}`);

/** Fields S3 never requires a condition for. */
const UNCONDITIONED = new Set(['policy', 'x-amz-signature', 'file']);

export function checkPostedForm(
  bucket: string,
  form: PostedFile,
  secretOf: (accessKeyId: string) => string | undefined,
  now: Date = new Date(),
): PostVerdict {
  const field = (name: string) => (name === 'bucket' ? bucket : form.fields.get(name.toLowerCase()));
  const policyText = form.fields.get('policy');
  const credential = form.fields.get('x-amz-credential') ?? '';
  const [accessKeyId = '', date = '', region = '', service = ''] = credential.split('/');
  if (!policyText || !form.fields.get('x-amz-signature')) {
    return refused(403, 'AccessDenied', 'Bucket POST must contain a policy and its signature');
  }
  if (!form.file)
    return refused(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  const secret = secretOf(accessKeyId);
  if (secret === undefined) {
    return refused(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
    );
  }
  const expected = createHmac('sha256', signingKey(secret, date, region, service))
    .update(policyText)
    .digest();
  const given = Buffer.from(form.fields.get('x-amz-signature') ?? '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return refused(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  }
  let policy: { expiration?: string; conditions?: Condition[] };
  try {
    policy = JSON.parse(Buffer.from(policyText, 'base64').toString('utf8'));
  } catch {
    return refused(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  if (!policy.expiration || !(Date.parse(policy.expiration) > now.getTime())) {
    return policyFailed('Policy expired.');
  }
  const named = new Set<string>();
  for (const condition of policy.conditions ?? []) {
    if (!Array.isArray(condition)) {
      for (const [name, value] of Object.entries(condition)) {
        named.add(name.toLowerCase());
        if (field(name) !== value)
          return policyFailed(`Policy Condition failed: ["eq", "$${name}", "${value}"]`);
      }
      continue;
    }
    const [operator, first, second] = condition;
    if (operator === 'content-length-range') {
      const size = form.truncated ? Number.POSITIVE_INFINITY : form.file.length;
      if (size > Number(second)) {
        return refused(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
      }
      if (size < Number(first)) {
        return refused(
          400,
          'EntityTooSmall',
          'Your proposed upload is smaller than the minimum allowed size',
        );
      }
      continue;
    }
    const name = String(first).replace(/^\$/, '');
    named.add(name.toLowerCase());
    const value = field(name) ?? '';
    const holds =
      operator === 'eq'
        ? value === String(second)
        : operator === 'starts-with' && value.startsWith(String(second));
    if (!holds) return policyFailed(`Policy Condition failed: ["${operator}", "$${name}", "${second}"]`);
  }
  for (const name of form.fields.keys()) {
    if (!UNCONDITIONED.has(name) && !name.startsWith('x-ignore-') && !named.has(name)) {
      return policyFailed(`Extra input fields: ${name}`);
    }
  }
  if (form.truncated)
    return refused(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
  const key = form.fields.get('key');
  if (!key) return refused(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.");
  return { ok: true, key, contentType: form.fields.get('content-type'), file: form.file, accessKeyId };
}
