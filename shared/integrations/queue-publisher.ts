import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { type QueueName, queueUrlVariable } from '../catalogue/queues.ts';
import { env } from '../config/env.ts';
import { QUEUE_MESSAGES, type QueueMessage } from '../messages/index.ts';

let client: SQSClient | undefined;

/** One SQS client per process, created on first use (tests set the environment first). */
export function queueClient(): SQSClient {
  if (!client) {
    const { SQS_ENDPOINT, AWS_REGION } = env();
    client = new SQSClient({ region: AWS_REGION, ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {}) });
  }
  return client;
}

function queueUrl(queue: QueueName): string {
  const url = env()[queueUrlVariable(queue)];
  if (!url) throw new Error(`No URL configured for queue ${queue} (${queueUrlVariable(queue)})`);
  return url;
}

/**
 * Sends one message to a catalogued queue after checking it against the queue's message contract (the worker
 * checks it again on receipt); answers the SQS message id.
 */
export async function publish<Q extends QueueName>(
  queue: Q,
  message: QueueMessage<Q>,
): Promise<string | undefined> {
  const checked = v.parse(QUEUE_MESSAGES[queue], message);
  const result = await queueClient().send(
    new SendMessageCommand({ QueueUrl: queueUrl(queue), MessageBody: JSON.stringify(checked) }),
  );
  return result.MessageId;
}

/**
 * Sends many messages to one queue, ten per SendMessageBatch (SQS's limit), each checked against the queue's
 * contract. Entries SQS refuses are retried; any still refused after that throws (the caller's message is then
 * redelivered, and its receivers must be idempotent anyway).
 */
export async function publishBatch<Q extends QueueName>(
  queue: Q,
  messages: readonly QueueMessage<Q>[],
): Promise<void> {
  const bodies = messages.map((message) => JSON.stringify(v.parse(QUEUE_MESSAGES[queue], message)));
  for (let start = 0; start < bodies.length; start += 10) {
    let pending = bodies
      .slice(start, start + 10)
      .map((MessageBody, index) => ({ Id: String(index), MessageBody }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= 4) throw new Error(`SQS refused ${pending.length} message(s) for ${queue}`);
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      const result = await queueClient().send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl(queue), Entries: pending }),
      );
      const failed = new Set((result.Failed ?? []).map((entry) => entry.Id));
      pending = pending.filter((entry) => failed.has(entry.Id));
    }
  }
}
