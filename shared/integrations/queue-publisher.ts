import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { QueueName } from '../../infra/catalogue.ts';
import { env } from '../config/env.ts';

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
  const urls: Record<QueueName, string> = {
    mail: env().QUEUE_URL_MAIL,
    migration: env().QUEUE_URL_MIGRATION,
  };
  const url = urls[queue];
  if (!url) throw new Error(`No URL configured for queue ${queue}`);
  return url;
}

/** Sends one JSON message to a catalogued queue; answers the SQS message id. */
export async function publish(queue: QueueName, message: unknown): Promise<string | undefined> {
  const result = await queueClient().send(
    new SendMessageCommand({ QueueUrl: queueUrl(queue), MessageBody: JSON.stringify(message) }),
  );
  return result.MessageId;
}
