import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { accessDenied, sendAwsError } from './aws-errors.ts';
import type { IamCheck } from './iam-check.ts';
import { checkPostedForm, readPostedForm } from './presigned-post.ts';
import { type ArnContext, iamRequestsOf, jsonOperation } from './request-actions.ts';
import { hasValidSignature, type IncomingAwsRequest, parseAuthorization } from './sigv4.ts';
import type { SynthesizedFunction } from './synthesized-functions.ts';

/**
 * The local stand-in for AWS's own front door, on one loopback port before the emulators (DynamoDB Local, fauxqs,
 * the SES emulator) and answering Secrets Manager itself:
 *
 * - every signed request is checked as AWS checks it: a known access key, a valid SigV4 signature; when the key is a
 *   function's (bundled mode), every IAM action the request needs is evaluated against that function's synthesized
 *   policy (iam-check.ts) and a refusal is the service's own AccessDenied error;
 * - a browser's POST to the bucket must satisfy its presigned policy (presigned-post.ts), in both modes;
 * - unsigned GET/HEAD of objects pass (the emulator serves files to browsers, as the CDN does in the cloud).
 */
export interface Principal {
  readonly secretAccessKey: string;
  /** The function whose role this key is; undefined = the local administrator (the stack itself, tests, CLI). */
  readonly fn?: SynthesizedFunction;
}

export interface AwsFrontOptions {
  readonly upstream: {
    readonly dynamodb: string;
    readonly s3: string;
    readonly sqs: string;
    readonly ses: string;
  };
  readonly principals: ReadonlyMap<string, Principal>;
  /** Given in bundled mode: function keys are held to their policies. */
  readonly iam?: IamCheck;
  readonly arns: ArnContext;
  /** GetSecretValue's answer for a secret ARN (undefined = no such secret). */
  readonly secretValue?: (arn: string) => string | undefined;
  /** Told of every request refused by IAM (the bundled mode reports them with the invocation). */
  readonly onDenied?: (fn: SynthesizedFunction, error: string) => void;
  /** The largest file a presigned POST may carry before it is refused unread (10 MB uploads, with room). */
  readonly maxPostBytes?: number;
}

export interface AwsFront {
  readonly endpoint: string;
  close(): Promise<void>;
}

export async function startAwsFront(options: AwsFrontOptions): Promise<AwsFront> {
  const server = createServer((request, response) => {
    handle(options, request, response).catch((error: unknown) => {
      process.stderr.write(`aws front error: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!response.headersSent)
        sendAwsError(response, 's3', { status: 500, code: 'InternalError', message: 'error' });
      else response.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function handle(options: AwsFrontOptions, request: IncomingMessage, response: ServerResponse) {
  const body = await readAll(request);
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(',') : (value ?? ''),
    ]),
  );
  const incoming: IncomingAwsRequest = {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    headers,
    body,
  };
  const path = new URL(incoming.url, 'http://front').pathname;

  if (incoming.method === 'POST' && /^multipart\/form-data/i.test(headers['content-type'] ?? '')) {
    await presignedPost(options, incoming, path.split('/')[1] ?? '', response);
    return;
  }
  const signedBy = parseAuthorization(headers.authorization);
  if (!signedBy) {
    if (incoming.method === 'GET' || incoming.method === 'HEAD')
      return forward(options.upstream.s3, incoming, response);
    return sendAwsError(response, 's3', accessDenied('Anonymous users cannot perform this action'));
  }
  const { service } = signedBy;
  const principal = options.principals.get(signedBy.accessKeyId);
  if (!principal) {
    return sendAwsError(response, service, {
      status: 403,
      code: service === 's3' ? 'InvalidAccessKeyId' : 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    });
  }
  if (!(await hasValidSignature(incoming, signedBy, principal.secretAccessKey))) {
    return sendAwsError(response, service, {
      status: 403,
      code: service === 's3' ? 'SignatureDoesNotMatch' : 'InvalidSignatureException',
      message: 'The request signature we calculated does not match the signature you provided.',
    });
  }
  const fn = principal.fn;
  if (fn && options.iam) {
    for (const needed of iamRequestsOf(service, incoming, options.arns)) {
      const decision = await options.iam.check(fn, needed);
      if (!decision.allowed) {
        options.onDenied?.(fn, `${deniedName(service)}: ${decision.message}`);
        return sendAwsError(response, service, accessDenied(decision.message));
      }
    }
  }
  if (service === 'secretsmanager') return answerSecret(options, incoming, response);
  const upstream =
    service === 'dynamodb'
      ? options.upstream.dynamodb
      : service === 'sqs'
        ? options.upstream.sqs
        : service === 's3'
          ? options.upstream.s3
          : options.upstream.ses;
  const status = await forward(upstream, incoming, response, (code) =>
    // S3 answers a missing key with 403, not 404, to a caller that may not list the bucket: nothing leaks.
    code === 404 && fn && options.iam && service === 's3' && ['GET', 'HEAD'].includes(incoming.method)
      ? mayList(options.iam, fn, path)
      : Promise.resolve(true),
  );
  return status;
}

/** The error name the function's SDK raises for a refusal of this service. */
const deniedName = (service: string) =>
  service === 's3' || service === 'ses' || service === 'email' ? 'AccessDenied' : 'AccessDeniedException';

async function mayList(iam: IamCheck, fn: SynthesizedFunction, path: string): Promise<boolean> {
  const bucket = path.split('/')[1] ?? '';
  return (await iam.check(fn, { action: 's3:ListBucket', resource: `arn:aws:s3:::${bucket}` })).allowed;
}

async function presignedPost(
  options: AwsFrontOptions,
  incoming: IncomingAwsRequest,
  bucket: string,
  response: ServerResponse,
) {
  const form = await readPostedForm(
    incoming.body,
    incoming.headers['content-type'] ?? '',
    options.maxPostBytes ?? 11 * 1024 * 1024,
  );
  const verdict = checkPostedForm(bucket, form, (key) => options.principals.get(key)?.secretAccessKey);
  if (!verdict.ok) return sendAwsError(response, 's3', verdict);
  const fn = options.principals.get(verdict.accessKeyId)?.fn;
  const resource = `arn:aws:s3:::${bucket}/${verdict.key}`;
  if (fn && options.iam) {
    // The upload is the signer's PutObject: its role must allow it on this key.
    const decision = await options.iam.check(fn, { action: 's3:PutObject', resource });
    if (!decision.allowed) {
      options.onDenied?.(fn, `AccessDenied: ${decision.message}`);
      return sendAwsError(response, 's3', accessDenied(decision.message));
    }
  }
  const key = verdict.key.split('/').map(encodeURIComponent).join('/');
  const stored = await forward(
    options.upstream.s3,
    {
      method: 'PUT',
      url: `/${bucket}/${key}`,
      headers: { ...(verdict.contentType ? { 'content-type': verdict.contentType } : {}) },
      body: verdict.file,
    },
    undefined,
  );
  if (stored.status >= 300)
    return sendAwsError(response, 's3', { status: 500, code: 'InternalError', message: 'store failed' });
  // S3's default `success_action_status`: 204 with the object's location.
  response.writeHead(204, {
    location: `${options.upstream.s3}/${bucket}/${key}`,
    etag: stored.headers.etag ?? '',
  });
  response.end();
}

function answerSecret(options: AwsFrontOptions, incoming: IncomingAwsRequest, response: ServerResponse) {
  const id = String(
    (JSON.parse(incoming.body.toString('utf8') || '{}') as { SecretId?: string }).SecretId ?? '',
  );
  const value = jsonOperation(incoming) === 'GetSecretValue' ? options.secretValue?.(id) : undefined;
  if (value === undefined) {
    return sendAwsError(response, 'secretsmanager', {
      status: 400,
      code: 'ResourceNotFoundException',
      message: "Secrets Manager can't find the specified secret.",
    });
  }
  response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
  response.end(
    JSON.stringify({
      ARN: id,
      Name: id.split(':').pop(),
      SecretString: value,
      VersionId: '00000000-0000-0000-0000-000000000000',
      VersionStages: ['AWSCURRENT'],
      CreatedDate: 0,
    }),
  );
}

interface Forwarded {
  readonly status: number;
  readonly headers: Record<string, string>;
}

/**
 * Sends the request on to an emulator and, given a response, copies the answer back. `keep404` decides whether an
 * upstream 404 stays one (else it becomes S3's 403).
 */
function forward(
  upstream: string,
  incoming: IncomingAwsRequest,
  response: ServerResponse | undefined,
  keep404?: (status: number) => Promise<boolean>,
): Promise<Forwarded> {
  const target = new URL(incoming.url, upstream);
  const headers = { ...incoming.headers, host: target.host, 'content-length': String(incoming.body.length) };
  delete (headers as Record<string, string>)['transfer-encoding'];
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(target, { method: incoming.method, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', async () => {
        const copied: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !['connection', 'keep-alive', 'transfer-encoding'].includes(name)) {
            copied[name] = Array.isArray(value) ? value.join(',') : value;
          }
        }
        const status = answer.statusCode ?? 500;
        if (response) {
          if (status === 404 && keep404 && !(await keep404(status))) {
            sendAwsError(response, 's3', accessDenied('Access Denied'));
          } else {
            response.writeHead(status, copied);
            response.end(incoming.method === 'HEAD' ? undefined : Buffer.concat(chunks));
          }
        }
        resolve({ status, headers: copied });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(incoming.body);
  });
}

function readAll(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
