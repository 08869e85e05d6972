import type { IamRequest } from './iam-check.ts';
import type { IncomingAwsRequest } from './sigv4.ts';

/** What the front needs to name resources as AWS does. */
export interface ArnContext {
  readonly region: string;
  readonly account: string;
  /** A queue's ARN from the URL the SDK sends (`QueueUrl`). */
  queueArn(url: string): string;
  /** The SES identity a `Source` address sends as (the address, or its verified domain). */
  mailIdentity(source: string): string;
}

/**
 * The IAM actions and resources one SDK request needs, as each service authorizes it (the service authorization
 * reference): DynamoDB per table or index and per item of a transaction, SQS per queue, S3 per object or bucket,
 * SES per identity, Secrets Manager per secret. A request this does not recognise needs `<service>:Unknown`,
 * which no policy allows, so nothing passes unexamined.
 */
export function iamRequestsOf(service: string, request: IncomingAwsRequest, arns: ArnContext): IamRequest[] {
  switch (service) {
    case 'dynamodb':
      return dynamodb(request, arns);
    case 'sqs':
      return sqs(request, arns);
    case 's3':
      return s3(request);
    case 'ses':
    case 'email':
      return ses(request, arns);
    case 'secretsmanager':
      return secretsManager(request);
    default:
      return [{ action: `${service}:Unknown`, resource: '*' }];
  }
}

/** The operation of a JSON-protocol request: `X-Amz-Target: DynamoDB_20120810.PutItem` → `PutItem`. */
export const jsonOperation = (request: IncomingAwsRequest): string =>
  (request.headers['x-amz-target'] ?? '').split('.').pop() ?? '';

const jsonBody = (request: IncomingAwsRequest): Record<string, unknown> =>
  request.body.length ? (JSON.parse(request.body.toString('utf8')) as Record<string, unknown>) : {};

function dynamodb(request: IncomingAwsRequest, arns: ArnContext): IamRequest[] {
  const operation = jsonOperation(request);
  const body = jsonBody(request);
  const table = (name: unknown, index?: unknown) =>
    `arn:aws:dynamodb:${arns.region}:${arns.account}:table/${String(name)}${index ? `/index/${String(index)}` : ''}`;
  switch (operation) {
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys((body.RequestItems as object) ?? {}).map((name) => ({
        action: `dynamodb:${operation}`,
        resource: table(name),
      }));
    case 'TransactWriteItems': {
      const kinds: Record<string, string> = {
        ConditionCheck: 'ConditionCheckItem',
        Put: 'PutItem',
        Update: 'UpdateItem',
        Delete: 'DeleteItem',
      };
      return ((body.TransactItems as Record<string, { TableName?: string }>[]) ?? []).flatMap((item) =>
        Object.entries(item).map(([kind, part]) => ({
          action: `dynamodb:${kinds[kind] ?? kind}`,
          resource: table(part.TableName),
        })),
      );
    }
    case 'TransactGetItems':
      return ((body.TransactItems as { Get?: { TableName?: string } }[]) ?? []).map((item) => ({
        action: 'dynamodb:GetItem',
        resource: table(item.Get?.TableName),
      }));
    default:
      return [{ action: `dynamodb:${operation}`, resource: table(body.TableName, body.IndexName) }];
  }
}

function sqs(request: IncomingAwsRequest, arns: ArnContext): IamRequest[] {
  const operation = jsonOperation(request);
  const body = jsonBody(request);
  // The batch calls are authorized as their single forms.
  const action = operation.replace(/Batch$/, '');
  const url = typeof body.QueueUrl === 'string' ? body.QueueUrl : '';
  return [{ action: `sqs:${action}`, resource: url ? arns.queueArn(url) : '*' }];
}

function s3(request: IncomingAwsRequest): IamRequest[] {
  const url = new URL(request.url, 'http://front');
  const [, bucket = '', ...rest] = url.pathname.split('/');
  const key = rest.map((part) => decodeURIComponent(part)).join('/');
  const object = `arn:aws:s3:::${bucket}/${key}`;
  const query = url.searchParams;
  const method = request.method.toUpperCase();
  if (!key) {
    if (method === 'POST' && query.has('delete')) {
      // DeleteObjects: each key is authorized as a DeleteObject of its own.
      const keys = [...request.body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) =>
        unescapeXml(m[1] ?? ''),
      );
      return keys.map((name) => ({ action: 's3:DeleteObject', resource: `arn:aws:s3:::${bucket}/${name}` }));
    }
    if (method === 'GET' && !query.has('location')) {
      return [
        {
          action: 's3:ListBucket',
          resource: `arn:aws:s3:::${bucket}`,
          context: { 's3:prefix': query.get('prefix') ?? '' },
        },
      ];
    }
    return [
      { action: `s3:${method === 'PUT' ? 'CreateBucket' : 'Unknown'}`, resource: `arn:aws:s3:::${bucket}` },
    ];
  }
  if (method === 'GET' || method === 'HEAD') return [{ action: 's3:GetObject', resource: object }];
  if (method === 'DELETE') {
    return [
      { action: query.has('uploadId') ? 's3:AbortMultipartUpload' : 's3:DeleteObject', resource: object },
    ];
  }
  // PutObject, CopyObject's write, and every step of a multipart upload are authorized as s3:PutObject.
  if (method === 'PUT' || method === 'POST') return [{ action: 's3:PutObject', resource: object }];
  return [{ action: 's3:Unknown', resource: object }];
}

function ses(request: IncomingAwsRequest, arns: ArnContext): IamRequest[] {
  const form = new URLSearchParams(request.body.toString('utf8'));
  const action = form.get('Action') ?? 'Unknown';
  const source = form.get('Source') ?? '';
  return [{ action: `ses:${action}`, resource: arns.mailIdentity(source) }];
}

function secretsManager(request: IncomingAwsRequest): IamRequest[] {
  const body = jsonBody(request);
  return [{ action: `secretsmanager:${jsonOperation(request)}`, resource: String(body.SecretId ?? '*') }];
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
