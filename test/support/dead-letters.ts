import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import type { QueueName } from '../../shared/catalogue/index.ts';

/**
 * Waits for the message a test expects in a catalogued queue's DLQ, by its own content: the DLQ is shared by
 * every test of the run (other migration runs' chunks may be there first), and a message reaches it only on the
 * receive after its last failed delivery, which may come after the test's own run has already ended.
 *
 * Messages are received with a visibility timeout so each receive moves on through the queue; a message that is
 * not the test's is left there (it becomes visible again for whoever reads it) and never deleted.
 */
export async function waitForDeadLetter<T>(
  queue: QueueName,
  isMine: (body: Record<string, unknown>) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const stack = inject('stack');
  const queueUrl = stack.deadLetterQueueUrls[queue];
  if (!queueUrl) throw new Error(`queue ${queue} has no DLQ`);
  const sqs = new SQSClient({
    endpoint: stack.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const seen: unknown[] = [];
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const received = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          VisibilityTimeout: 5,
        }),
      );
      for (const message of received.Messages ?? []) {
        const body = JSON.parse(message.Body ?? 'null') as Record<string, unknown>;
        if (isMine(body)) return body as T;
        seen.push(body);
      }
      if (Date.now() > deadline) {
        throw new Error(
          `no message of this test in the ${queue} DLQ after ${timeoutMs} ms; saw ${JSON.stringify(seen)}`,
        );
      }
    }
  } finally {
    sqs.destroy();
  }
}
