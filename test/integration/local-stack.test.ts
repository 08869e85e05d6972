import { randomBytes } from 'node:crypto';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import {
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { QueueEntry } from '../../shared/catalogue/index.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../infra/local/emulators.ts';
import { type Poller, startPoller } from '../../infra/local/poller.ts';
import { type ProvisionedQueue, provision } from '../../infra/local/provision.ts';
import { GLOBAL_INDEXES } from '../../shared/db/table-definition.ts';
import { deliveries } from '../support/workers/recording-worker.ts';

const stack = inject('stack');
/** Test files share one stack (and may run in parallel): queues made here get a name of their own. */
const run = randomBytes(3).toString('hex');
const clientOptions = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };

/** A stand-in for a catalogue entry, so the poller is proven before any real queue is catalogued. */
const testQueue: QueueEntry = {
  name: 'mail',
  entry: 'test/support/workers/recording-worker.ts',
  grants: {},
  batchSize: 10,
  timeoutSeconds: 5,
  maxReceiveCount: 2,
};

describe('local stack', () => {
  const sqs = new SQSClient({ ...clientOptions, endpoint: stack.sqsEndpoint });
  let queue: ProvisionedQueue;
  let poller: Poller;

  beforeAll(async () => {
    const options = {
      dynamodbEndpoint: stack.dynamodbEndpoint,
      s3Endpoint: stack.s3Endpoint,
      sqsEndpoint: stack.sqsEndpoint,
      tableName: stack.tableName,
      bucketName: stack.bucketName,
      queuePrefix: `${stack.queuePrefix}-${run}`,
      queues: [testQueue],
    };
    // Twice: provisioning must be idempotent (npm start re-runs it against persisted emulator data).
    await provision(options);
    const provisioned = await provision(options);
    queue = provisioned.queues[0]!;
    poller = startPoller({
      sqsEndpoint: stack.sqsEndpoint,
      queues: [{ ...queue, visibilityTimeoutSeconds: 1 }],
    });
  });

  afterAll(async () => {
    await poller?.stop();
    sqs.destroy();
  });

  it('publishes loopback endpoints and the function environment', () => {
    for (const endpoint of [stack.dynamodbEndpoint, stack.sqsEndpoint, stack.s3Endpoint, stack.sesEndpoint]) {
      expect(new URL(endpoint).hostname).toBe('127.0.0.1');
    }
    for (const url of [queue.url, queue.deadLetterUrl]) {
      expect(url.startsWith(`${stack.sqsEndpoint}/`)).toBe(true);
    }
    expect(process.env.TABLE_NAME).toBe(stack.tableName);
    expect(process.env.DYNAMODB_ENDPOINT).toBe(stack.dynamodbEndpoint);
    expect(process.env.MEDIA_PUBLIC_BASE_URL).toBe(`${stack.s3Endpoint}/${stack.bucketName}`);
    expect(process.env.VALIDATE_RESPONSES).toBe('true');
  });

  it('creates the table from the shared definition with its three GSIs', async () => {
    const dynamodb = new DynamoDBClient({ ...clientOptions, endpoint: stack.dynamodbEndpoint });
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: stack.tableName }));
    dynamodb.destroy();
    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName,
      keys: index.KeySchema?.map((key) => key.AttributeName),
    }));
    expect(indexes.sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(
      GLOBAL_INDEXES.map((index) => ({ name: index.name, keys: [index.partitionKey, index.sortKey] })),
    );
  });

  it('gives each queue the catalogue visibility timeout and a redrive policy to its DLQ', async () => {
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queue.url,
        AttributeNames: ['VisibilityTimeout', 'RedrivePolicy'],
      }),
    );
    expect(Attributes?.VisibilityTimeout).toBe(String(testQueue.timeoutSeconds * 6));
    expect(JSON.parse(Attributes?.RedrivePolicy ?? '{}')).toEqual({
      deadLetterTargetArn: queue.deadLetterArn,
      maxReceiveCount: testQueue.maxReceiveCount,
    });
  });

  it('delivers a sent message to the worker as an SQSEvent record and deletes it', async () => {
    const body = JSON.stringify({ hello: 'world', at: Date.now() });
    const sent = await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.url,
        MessageBody: body,
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'greeting' } },
      }),
    );
    await poller.idle();

    const record = deliveries().find((delivered) => delivered.messageId === sent.MessageId);
    expect(record).toMatchObject({
      body,
      md5OfBody: sent.MD5OfMessageBody,
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: 'us-east-1',
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: { kind: { dataType: 'String', stringValue: 'greeting' } },
    });
    expect(record?.receiptHandle).toBeTruthy();
    expect(Number(record?.attributes.SentTimestamp)).toBeGreaterThan(0);
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queue.url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    expect(Attributes).toMatchObject({
      ApproximateNumberOfMessages: '0',
      ApproximateNumberOfMessagesNotVisible: '0',
    });
  });

  it('redelivers a record named in batchItemFailures and moves it to the DLQ after maxReceiveCount', async () => {
    const failing = await sqs.send(
      new SendMessageCommand({ QueueUrl: queue.url, MessageBody: '{"fail":true}' }),
    );

    // The poller's 1 s visibility override makes each retry come back after about a second.
    const deadLetter: Message[] = [];
    const deadline = Date.now() + 20_000;
    while (deadLetter.length === 0 && Date.now() < deadline) {
      const received = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queue.deadLetterUrl,
          WaitTimeSeconds: 1,
          MaxNumberOfMessages: 10,
        }),
      );
      deadLetter.push(...(received.Messages ?? []));
    }

    expect(deadLetter.map((message) => message.MessageId)).toEqual([failing.MessageId]);
    expect(deadLetter[0]?.Body).toBe('{"fail":true}');
    const attempts = deliveries().filter((record) => record.messageId === failing.MessageId);
    expect(attempts.map((record) => record.attributes.ApproximateReceiveCount)).toEqual(
      Array.from({ length: testQueue.maxReceiveCount }, (_, index) => String(index + 1)),
    );
  });

  it('redelivers a whole batch when the worker throws or outlives its timeout', async () => {
    const flaky: QueueEntry = { ...testQueue, name: 'migration', timeoutSeconds: 1, maxReceiveCount: 5 };
    const [provisioned] = (
      await provision({
        dynamodbEndpoint: stack.dynamodbEndpoint,
        s3Endpoint: stack.s3Endpoint,
        sqsEndpoint: stack.sqsEndpoint,
        tableName: stack.tableName,
        bucketName: stack.bucketName,
        queuePrefix: `${stack.queuePrefix}-${run}-flaky`,
        queues: [flaky],
      })
    ).queues;
    const seen: string[] = [];
    // First delivery throws, the second hangs past the 1 s timeout, the third succeeds.
    const flakyPoller = startPoller({
      sqsEndpoint: stack.sqsEndpoint,
      queues: [{ ...provisioned!, visibilityTimeoutSeconds: 1 }],
      invoke: async (_entry, event, context) => {
        const attempt = event.Records[0]!.attributes.ApproximateReceiveCount;
        seen.push(attempt);
        expect(context.getRemainingTimeInMillis()).toBeLessThanOrEqual(1000);
        if (attempt === '1') throw new Error('worker failed');
        if (attempt === '2') await new Promise((done) => setTimeout(done, 1500));
      },
    });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: provisioned!.url, MessageBody: '{}' }));
      const deadline = Date.now() + 15_000;
      while (!seen.includes('3') && Date.now() < deadline) await flakyPoller.idle();
      await flakyPoller.idle();
    } finally {
      await flakyPoller.stop();
    }
    expect(seen).toEqual(['1', '2', '3']);
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: provisioned!.url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    expect(Attributes).toMatchObject({
      ApproximateNumberOfMessages: '0',
      ApproximateNumberOfMessagesNotVisible: '0',
    });
  });

  it('stores an e-mail sent through SES and lists it at GET /store', async () => {
    const ses = new SESClient({ ...clientOptions, endpoint: stack.sesEndpoint });
    const subject = `Invitation ${Date.now()}`;
    const sent = await ses.send(
      new SendEmailCommand({
        Source: 'community@example.com',
        Destination: { ToAddresses: ['member@example.com'] },
        Message: { Subject: { Data: subject }, Body: { Text: { Data: 'Join us' } } },
      }),
    );
    ses.destroy();

    const response = await fetch(`${stack.sesEndpoint}/store`);
    expect(response.ok).toBe(true);
    const store = (await response.json()) as {
      emails: Array<{
        messageId: string;
        subject: string;
        destination: { to: string[] };
        body: { text?: string };
      }>;
    };
    const email = store.emails.find((stored) => stored.messageId === sent.MessageId);
    expect(email).toMatchObject({
      subject,
      destination: { to: ['member@example.com'] },
      body: { text: 'Join us' },
    });
  });
});
