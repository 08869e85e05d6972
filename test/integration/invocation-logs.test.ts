import { randomBytes } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../infra/local/emulators.ts';
import { type Gateway, startGateway } from '../../infra/local/gateway.ts';
import { type Poller, startPoller } from '../../infra/local/poller.ts';
import { provision } from '../../infra/local/provision.ts';
import type { QueueEntry, RouteEntry } from '../../shared/catalogue/index.ts';
import { type CapturedOutput, captureOutput } from '../support/log-capture.ts';

/**
 * Log lines carry their own invocation's keys: a worker invocation that runs while an HTTP request is in flight
 * in the same process (the local gateway and poller, on the real handler and worker factories and the local
 * Lambda runtime) logs its message id and never the request's id, and the request's lines after the worker ran
 * still carry the request's id and never the message id.
 */
const stack = inject('stack');
const run = `logs-${randomBytes(4).toString('hex')}`;

const probeRoute: RouteEntry = {
  operationId: 'logProbe',
  method: 'GET',
  path: '/log-probe',
  access: 'public',
  entry: 'test/support/handlers/log-probe.ts',
  grants: {},
};
const probeQueue: QueueEntry = {
  name: 'mail',
  entry: 'test/support/workers/log-probe-worker.ts',
  grants: {},
  batchSize: 1,
  timeoutSeconds: 10,
  maxReceiveCount: 2,
};

let gateway: Gateway;
let poller: Poller;
let queueUrl: string;
const sqs = new SQSClient({
  endpoint: stack.sqsEndpoint,
  region: LOCAL_REGION,
  credentials: LOCAL_CREDENTIALS,
});

beforeAll(async () => {
  // The function loggers of this process are made on their first line, after this: info lines are kept.
  process.env.LOG_LEVEL = 'info';
  const [queue] = (
    await provision({
      dynamodbEndpoint: stack.dynamodbEndpoint,
      s3Endpoint: stack.s3Endpoint,
      sqsEndpoint: stack.sqsEndpoint,
      tableName: stack.tableName,
      bucketName: stack.bucketName,
      queuePrefix: `${stack.queuePrefix}-${run}`,
      queues: [probeQueue],
    })
  ).queues;
  queueUrl = queue!.url;
  gateway = await startGateway({ port: 0, routes: [probeRoute] });
  poller = startPoller({ sqsEndpoint: stack.sqsEndpoint, queues: [queue!] });
});

afterAll(async () => {
  await poller?.stop();
  await gateway?.close();
  sqs.destroy();
});

describe('log lines under concurrent invocations', () => {
  let output: CapturedOutput;

  it('keep each invocation to its own request id, operation id and message id', async () => {
    output = captureOutput();
    let requestId: string | null;
    let messageId: string | undefined;
    try {
      const [response, sent] = await Promise.all([
        fetch(`${gateway.url}/log-probe?run=${run}`),
        sqs.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: JSON.stringify({ dedupe_id: run, to: 'probe@example.com', subject: 's', text: 't' }),
          }),
        ),
      ]);
      expect(response.status).toBe(200);
      requestId = response.headers.get('x-request-id');
      messageId = sent.MessageId;
      await poller.idle();
    } finally {
      output.restore();
    }

    const lines = output.lines();
    const messages = lines.map((line) => line.message);
    const requestLines = lines.filter((line) => line.service === 'logProbe');
    const workerLines = lines.filter((line) => line.service === 'mailWorker');
    // The worker logged between the request's two lines: the two invocations overlapped.
    expect(messages.indexOf('probe: request before worker')).toBeLessThan(messages.indexOf('probe: worker'));
    expect(messages.indexOf('probe: worker')).toBeLessThan(messages.indexOf('probe: request after worker'));

    expect(requestLines.map((line) => line.message)).toEqual([
      'probe: request before worker',
      'probe: request after worker',
      'request',
    ]);
    for (const line of requestLines) {
      expect(line).toMatchObject({ requestId, operationId: 'logProbe', function_name: 'logProbe' });
      expect(line).not.toHaveProperty('messageId');
      expect(line).not.toHaveProperty('queue');
    }

    expect(workerLines.map((line) => line.message)).toEqual(['probe: worker', 'message processed']);
    for (const line of workerLines) {
      expect(line).toMatchObject({ messageId, queue: 'mail', function_name: 'mailWorker' });
      expect(line).not.toHaveProperty('requestId');
      expect(line).not.toHaveProperty('operationId');
    }
    const invocationIds = new Set([...requestLines, ...workerLines].map((line) => line.function_request_id));
    expect(invocationIds.size).toBe(2);
  });
});
