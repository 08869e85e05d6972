import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
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
