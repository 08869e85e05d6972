import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { resetEnvCache } from '../../shared/config/env.ts';
import { copyMigrationImages } from '../../shared/domain/migrations/copy-migration-images.ts';
import { processMigrationMessage } from '../../shared/domain/migrations/process-migration-message.ts';
import { findRun } from '../../shared/domain/migrations/run-repository.ts';
import type { ImagesMessage, MigrationMessage } from '../../shared/messages/index.ts';

/**
 * Drives a migration from the test process instead of the stack's poller: the `migrations` and `images` queue
 * URLs of this process point at private queues, so what a start or a worker publishes here is received only by this driver,
 * which decides how each message is delivered (twice at once; or first to a worker that is killed mid-chunk).
 * `stack` is the test stack (`inject('stack')`) or any local stack's SQS endpoint and queue prefix.
 */
export async function usePrivateMigrationQueue(stack: {
  readonly sqsEndpoint: string;
  readonly queuePrefix: string;
}): Promise<{ sqs: SQSClient; url: string; imagesUrl: string }> {
  const sqs = new SQSClient({
    endpoint: stack.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const name = `${stack.queuePrefix}-migrations-driven-${process.pid}`;
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  const images = await sqs.send(
    new CreateQueueCommand({ QueueName: `${stack.queuePrefix}-images-driven-${process.pid}` }),
  );
  process.env.QUEUE_URL_MIGRATIONS = QueueUrl!;
  process.env.QUEUE_URL_IMAGES = images.QueueUrl!;
  resetEnvCache();
  return { sqs, url: QueueUrl!, imagesUrl: images.QueueUrl! };
}

export interface Delivery {
  /** Deliver every message twice, both at once. */
  readonly twice?: boolean;
  /** Hand this chunk message first to a worker process killed mid-chunk (then deliver it again). */
  readonly killFirst?: (message: MigrationMessage) => boolean;
  /** Runs after the killed worker died and before the chunk is delivered again. */
  readonly afterKill?: (message: MigrationMessage) => Promise<void>;
  /** Lose this message: delete it without delivering it (a purged queue, a DLQ'd chunk never counted). */
  readonly lose?: (message: MigrationMessage) => boolean;
  /** Delivers each message instead of the driver (which passes its own delivery as `deliver`): to observe it. */
  readonly around?: (message: MigrationMessage, deliver: () => Promise<void>) => Promise<void>;
  /** Return as soon as the queue is empty, even with the run still in progress (it stopped moving). */
  readonly untilIdle?: boolean;
  /** Leave the `images` queue alone (its messages wait): what the run does while its images are not stored. */
  readonly holdImages?: boolean;
  /** Deliver every `images` message twice, both at once (`twice` does too). */
  readonly imagesTwice?: boolean;
}

export async function drive(
  queue: { sqs: SQSClient; url: string; imagesUrl: string },
  delivery: Delivery,
  timeoutMs = 240_000,
) {
  const killed: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await findRun('buddypress', true);
    if (run?.status !== 'in_progress') return { run, killed };
    if (Date.now() > deadline) throw new Error('driven migration did not finish');
    const { Messages = [] } = await queue.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.url,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 120,
      }),
    );
    const images = delivery.holdImages ? 0 : await deliverImages(queue, delivery);
    if (Messages.length === 0 && images === 0 && delivery.untilIdle) return { run, killed };
    for (const received of Messages) {
      const message = JSON.parse(received.Body!) as MigrationMessage;
      if (delivery.lose?.(message)) {
        await queue.sqs.send(
          new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: received.ReceiptHandle! }),
        );
        continue;
      }
      if (delivery.killFirst?.(message)) {
        killed.push(await runKilledWorker(message));
        await delivery.afterKill?.(message);
      }
      const deliveries = delivery.twice ? 2 : 1;
      const deliver = async () => {
        await Promise.all(Array.from({ length: deliveries }, () => processMigrationMessage(message, 1)));
      };
      await (delivery.around ? delivery.around(message, deliver) : deliver());
      await queue.sqs.send(
        new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: received.ReceiptHandle! }),
      );
    }
  }
}

/** Delivers the waiting `images` messages (twice at once with `twice`); answers how many there were. */
async function deliverImages(
  queue: { sqs: SQSClient; imagesUrl: string },
  delivery: Delivery,
): Promise<number> {
  const { Messages = [] } = await queue.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queue.imagesUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
      VisibilityTimeout: 120,
    }),
  );
  await Promise.all(
    Messages.map(async (received) => {
      const message = JSON.parse(received.Body!) as ImagesMessage;
      const deliveries = delivery.twice || delivery.imagesTwice ? 2 : 1;
      await Promise.all(Array.from({ length: deliveries }, () => copyMigrationImages(message, 1)));
      await queue.sqs.send(
        new DeleteMessageCommand({ QueueUrl: queue.imagesUrl, ReceiptHandle: received.ReceiptHandle! }),
      );
    }),
  );
  return Messages.length;
}

/** Runs the message in a worker process that kills itself mid-chunk; answers the signal's number (9). */
function runKilledWorker(message: MigrationMessage): Promise<number> {
  const root = join(import.meta.dirname, '../..');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'test/support/migration-kill-worker.ts'), JSON.stringify(message)],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(9);
      else reject(new Error(`the worker was not killed mid-chunk: ${output}`));
    });
  });
}
