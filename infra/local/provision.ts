/**
 * Creates, on the local emulators, the resources CDK creates in the cloud: the one table (from the shared table
 * definition), the media bucket, and for every catalogued queue the queue and its dead-letter queue with the same
 * visibility timeout and redrive policy. Idempotent: `npm start` runs it on every start against persisted data.
 */
import {
  CreateTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import {
  MESSAGE_RETENTION_SECONDS,
  QUEUES,
  type QueueEntry,
  type QueueName,
  visibilityTimeoutSeconds,
} from '../../shared/catalogue/index.ts';
import { createTableInput } from '../../shared/db/table-definition.ts';
import type { FunctionEnvironment } from '../../shared/config/env.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './emulators.ts';

export interface ProvisionOptions {
  readonly dynamodbEndpoint: string;
  readonly s3Endpoint: string;
  readonly sqsEndpoint: string;
  readonly tableName: string;
  readonly bucketName: string;
  /** Prepended to every queue name (`<prefix>-<name>`, `<prefix>-<name>-dlq`) so runs and stacks cannot collide. */
  readonly queuePrefix: string;
  /** Defaults to the catalogue's `QUEUES`; tests pass their own entries. */
  readonly queues?: readonly QueueEntry[];
}

export interface ProvisionedQueue {
  readonly entry: QueueEntry;
  readonly url: string;
  readonly arn: string;
  readonly deadLetterUrl: string;
  readonly deadLetterArn: string;
}

export interface ProvisionedStack {
  readonly tableName: string;
  readonly bucketName: string;
  readonly queueUrls: Partial<Record<QueueName, string>>;
  readonly deadLetterQueueUrls: Partial<Record<QueueName, string>>;
  /** One per queue entry, in entry order; this is the shape `startPoller` takes. */
  readonly queues: readonly ProvisionedQueue[];
}

export async function provision(options: ProvisionOptions): Promise<ProvisionedStack> {
  const clientOptions = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  const dynamodb = new DynamoDBClient({ ...clientOptions, endpoint: options.dynamodbEndpoint });
  const s3 = new S3Client({ ...clientOptions, endpoint: options.s3Endpoint, forcePathStyle: true });
  const sqs = new SQSClient({ ...clientOptions, endpoint: options.sqsEndpoint });
  try {
    await Promise.all([createTable(dynamodb, options.tableName), createBucket(s3, options.bucketName)]);
    const queues: ProvisionedQueue[] = [];
    for (const entry of options.queues ?? QUEUES) {
      queues.push(await createQueuePair(sqs, options.sqsEndpoint, options.queuePrefix, entry));
    }
    return {
      tableName: options.tableName,
      bucketName: options.bucketName,
      queueUrls: Object.fromEntries(queues.map((queue) => [queue.entry.name, queue.url])),
      deadLetterQueueUrls: Object.fromEntries(queues.map((queue) => [queue.entry.name, queue.deadLetterUrl])),
      queues,
    };
  } finally {
    dynamodb.destroy();
    s3.destroy();
    sqs.destroy();
  }
}

async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    // Already there from a previous start (persisted data): keep it; the definition only changes through code.
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 }, { TableName: tableName });
}

async function createBucket(client: S3Client, bucketName: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucketName }));
  } catch (error) {
    const exists =
      error instanceof S3ServiceException &&
      (error.name === 'BucketAlreadyOwnedByYou' || error.name === 'BucketAlreadyExists');
    if (!exists) throw error;
  }
  // No CORS configuration: fauxqs 2.4.1 supports no bucket configuration actions (CORS, notifications, policy…).
  // Browser uploads against the local stack therefore depend on the emulator's own permissive CORS handling.
}

async function createQueuePair(
  sqs: SQSClient,
  endpoint: string,
  prefix: string,
  entry: QueueEntry,
): Promise<ProvisionedQueue> {
  const name = `${prefix}-${entry.name}`;
  const deadLetter = await ensureQueue(sqs, endpoint, `${name}-dlq`, {
    MessageRetentionPeriod: String(MESSAGE_RETENTION_SECONDS),
  });
  // Both keep a message 14 days, as the CDK stack does (the work queue as long as its DLQ).
  const queue = await ensureQueue(sqs, endpoint, name, {
    MessageRetentionPeriod: String(MESSAGE_RETENTION_SECONDS),
    VisibilityTimeout: String(visibilityTimeoutSeconds(entry)),
    RedrivePolicy: JSON.stringify({
      deadLetterTargetArn: deadLetter.arn,
      maxReceiveCount: entry.maxReceiveCount,
    }),
  });
  return {
    entry,
    url: queue.url,
    arn: queue.arn,
    deadLetterUrl: deadLetter.url,
    deadLetterArn: deadLetter.arn,
  };
}

/**
 * CreateQueue without attributes is idempotent; setting the attributes afterwards (rather than in CreateQueue,
 * which fails when an existing queue's attributes differ) lets a changed catalogue entry update a persisted queue.
 */
async function ensureQueue(
  sqs: SQSClient,
  endpoint: string,
  name: string,
  attributes: Record<string, string>,
): Promise<{ url: string; arn: string }> {
  const created = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  if (!created.QueueUrl) throw new Error(`CreateQueue returned no URL for ${name}`);
  // fauxqs keeps the URL a queue was first created with (persisted data remembers an old port) and looks queues up
  // by path alone, so re-base the path on the endpoint in use: URLs handed to functions are always current loopback.
  const url = new URL(new URL(created.QueueUrl).pathname, endpoint).href;
  await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: attributes }));
  const read = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  const arn = read.Attributes?.QueueArn;
  if (!arn) throw new Error(`GetQueueAttributes returned no QueueArn for ${name}`);
  return { url, arn };
}

export interface LocalEnvironmentInput {
  readonly tableName: string;
  readonly bucketName: string;
  readonly dynamodbEndpoint: string;
  readonly s3Endpoint: string;
  readonly sqsEndpoint: string;
  readonly sesEndpoint: string;
  readonly queueUrls: Partial<Record<QueueName, string>>;
}

type EnvironmentName = keyof FunctionEnvironment | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY';

/**
 * The environment a function needs to run against the local stack: the same variable names CDK sets in the cloud
 * (shared/config/env.ts), plus the emulator endpoints and dummy credentials the SDK insists on.
 */
export function localEnvironment(input: LocalEnvironmentInput): Record<string, string> {
  const environment: Partial<Record<EnvironmentName, string>> = {
    TABLE_NAME: input.tableName,
    MEDIA_BUCKET: input.bucketName,
    DYNAMODB_ENDPOINT: input.dynamodbEndpoint,
    S3_ENDPOINT: input.s3Endpoint,
    SQS_ENDPOINT: input.sqsEndpoint,
    SES_ENDPOINT: input.sesEndpoint,
    // Path-style, as fauxqs serves it: `<endpoint>/<bucket>/<key>`.
    MEDIA_PUBLIC_BASE_URL: `${input.s3Endpoint.replace(/\/+$/, '')}/${input.bucketName}`,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    VALIDATE_RESPONSES: 'true',
  };
  for (const [name, url] of Object.entries(input.queueUrls)) {
    if (url) environment[`QUEUE_URL_${name.toUpperCase()}` as EnvironmentName] = url;
  }
  return environment as Record<string, string>;
}
