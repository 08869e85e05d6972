import { createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '../../../shared/config/sha256.ts';

/** The parts of a SigV4 `Authorization` header the AWS front needs. */
export interface SignedBy {
  readonly accessKeyId: string;
  readonly date: string;
  readonly region: string;
  readonly service: string;
  readonly signedHeaders: readonly string[];
  readonly signature: string;
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/;

export function parseAuthorization(header: string | undefined): SignedBy | undefined {
  const match = header?.match(AUTHORIZATION);
  if (!match) return undefined;
  const [, accessKeyId, date, region, service, signedHeaders, signature] = match as unknown as string[];
  return {
    accessKeyId: accessKeyId as string,
    date: date as string,
    region: region as string,
    service: service as string,
    signedHeaders: (signedHeaders as string).split(';'),
    signature: signature as string,
  };
}

export interface IncomingAwsRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/**
 * Whether the request was signed with this secret: the request is signed again, over exactly the headers the
 * caller signed and at the caller's time, and the two signatures compared. A key used without its secret, or a
 * request altered on the way, is refused as AWS refuses it.
 */
export async function hasValidSignature(
  request: IncomingAwsRequest,
  signedBy: SignedBy,
  secretAccessKey: string,
): Promise<boolean> {
  const url = new URL(request.url, 'http://front');
  const headers: Record<string, string> = {};
  for (const name of signedBy.signedHeaders) headers[name] = request.headers[name] ?? '';
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  const amzDate = request.headers['x-amz-date'] ?? '';
  const signingDate = new Date(
    amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  if (Number.isNaN(signingDate.getTime())) return false;
  const signer = new SignatureV4({
    credentials: { accessKeyId: signedBy.accessKeyId, secretAccessKey },
    region: signedBy.region,
    service: signedBy.service,
    sha256: Sha256,
    // S3 signs the path as sent; every other service escapes it once more.
    uriEscapePath: signedBy.service !== 's3',
  });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: url.hostname,
      path: url.pathname,
      query,
      headers,
      body: request.body.length > 0 ? request.body : undefined,
    },
    { signingDate, signingRegion: signedBy.region, signingService: signedBy.service },
  );
  const authorization = String(signed.headers.authorization ?? signed.headers.Authorization ?? '');
  return authorization.endsWith(`Signature=${signedBy.signature}`);
}

/** The SigV4 signing key, for signatures over a string (presigned POST policies). */
export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const step = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
  return step(step(step(step(`AWS4${secret}`, date), region), service), 'aws4_request');
}
