import type { SecretName } from './secrets.ts';
import type { QueueEntryOf } from './types.ts';

/**
 * Every queue and its worker. A new queue is one entry here: its name types `publish()`, its URL variable
 * (`QUEUE_URL_<NAME>`) joins the function environment schema, CDK creates it with its DLQ and grants, and the
 * local stack provisions and polls it.
 */
export const QUEUES = [
  {
    name: 'mail',
    entry: 'functions/workers/send-mail.ts',
    grants: { mailer: true, table: 'readWrite' },
    batchSize: 10,
    timeoutSeconds: 30,
    maxReceiveCount: 3,
    maxConcurrency: 2,
  },
  {
    // Bulk notification actions leave items to tidy (flip or delete behind a watermark); order does not matter.
    name: 'notifications',
    entry: 'functions/workers/tidy-notifications.ts',
    grants: { table: 'readWrite', sendTo: ['notifications'] },
    batchSize: 5,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 2,
  },
  {
    // Notification fan-out: a request that notifies records its event here (one message) and answers; this worker
    // stores the notifications of a whole batch, one transaction per recipient, and queues their e-mails. Two
    // batches at once; within a batch, a recipient's counters move once (no race between its notifications).
    name: 'notify',
    entry: 'functions/workers/store-notifications.ts',
    grants: { table: 'readWrite', sendTo: ['mail'], live: 'post' },
    // Ten: the most Lambda hands over without a batching window, which would add its wait to every notification.
    batchSize: 10,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 2,
    // A notification waiting a minute means the worker is stuck or far behind (readers expect seconds).
    oldestMessageAlarmSeconds: 60,
  },
  {
    // Digest e-mails: a scheduled plan message fans out one message per subscriber (see schedules.ts).
    name: 'digest',
    entry: 'functions/workers/send-digests.ts',
    grants: { table: 'readWrite', mailer: true, sendTo: ['digest'], secrets: ['cursorKey'] },
    batchSize: 10,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 2,
  },
  {
    // BuddyPress migration: `plan` messages cut a phase into chunks, `chunk` messages migrate one keyset range each
    // (idempotent, counted once); a chunk failing maxReceiveCount times is counted failed and lands in the DLQ.
    // One chunk per invocation, four at once: each chunk is seconds of writes, and chunks of a phase are independent.
    // A chunk reads the avatars and covers of what it creates from the source's uploads only to name their copies
    // (checked by their magic bytes, keyed by their bytes: the URLs it sets on users and spaces); storing them,
    // re-encoded by sharp, is the `images` worker's, so this worker loads the MySQL driver and never sharp.
    name: 'migrations',
    entry: 'functions/workers/run-migration.ts',
    grants: {
      table: 'readWrite',
      sendTo: ['migrations', 'images'],
      secrets: ['buddypressSource'],
      sourceUploads: 'read',
    },
    nativeModules: ['mysql2'],
    batchSize: 1,
    timeoutSeconds: 300,
    maxReceiveCount: 3,
    maxConcurrency: 4,
    // Minutes of writes per chunk, for hours: never more than these four at once, whatever else happens.
    reservedConcurrency: 4,
  },
  {
    // A BuddyPress migration's avatars and covers: a chunk sends the images of the members (or groups) it creates,
    // named and set on them already; this worker reads each from the source's uploads (the location comes in the
    // message: no source secret), re-encodes it with sharp into the media bucket, puts its media item and tallies
    // its counters, each owner once (a done marker), and plans the run's tally when it stored the run's last
    // images (the tally waits for them: migrationImagesPendingKey). No MySQL: its cold start carries sharp alone.
    name: 'images',
    entry: 'functions/workers/copy-migration-images.ts',
    grants: {
      table: 'readWrite',
      bucket: { write: ['media/'] },
      sendTo: ['migrations'],
      sourceUploads: 'read',
    },
    nativeModules: ['sharp'],
    // Image re-encoding is CPU-bound; more memory is more CPU on Lambda (as the upload routes).
    memoryMb: 1536,
    batchSize: 1,
    timeoutSeconds: 120,
    maxReceiveCount: 3,
    // Four batches at most (the event source's cap); no reserved concurrency: it runs only while a run copies images.
    maxConcurrency: 4,
  },
  {
    // A deleted topic's feeds: DELETE /admin/topics/{id} removes the topic (reads treat it as gone at once) and
    // leaves the detaching here, 1 000 links per message, so the request's time does not grow with its feeds.
    name: 'topics',
    entry: 'functions/workers/detach-topic.ts',
    grants: { table: 'readWrite', sendTo: ['topics'] },
    batchSize: 1,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 2,
  },
  {
    // A deleted feed's comments and likes: DELETE /feeds/{id} removes the feed and every count it made (no comment
    // or like can be added once it is gone) and leaves removing them, with their authors' counters, here, in
    // bounded steps, so the request makes its few round trips whatever the feed's size.
    name: 'feeds',
    entry: 'functions/workers/sweep-feed.ts',
    grants: { table: 'readWrite', sendTo: ['feeds'] },
    batchSize: 1,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 2,
  },
] as const satisfies readonly QueueEntryOf<string, string, SecretName>[];

export type QueueName = (typeof QUEUES)[number]['name'];
export const QUEUE_NAMES = QUEUES.map((queue) => queue.name) as QueueName[];

/** A queue's catalogue entry (every queue name has one). */
export function queueNamed(name: QueueName): (typeof QUEUES)[number] {
  for (const queue of QUEUES) if (queue.name === name) return queue;
  throw new Error(`queue ${name} is not in the catalogue`);
}

/** The environment variable carrying a queue's URL: `mail` → `QUEUE_URL_MAIL`. */
export type QueueUrlVariable = `QUEUE_URL_${Uppercase<QueueName>}`;
export const queueUrlVariable = <N extends string>(name: N): `QUEUE_URL_${Uppercase<N>}` =>
  `QUEUE_URL_${name.toUpperCase()}` as `QUEUE_URL_${Uppercase<N>}`;

/**
 * How long a queue and its dead-letter queue keep a message: 14 days, the SQS maximum, for both. A work queue that
 * kept messages for less than its DLQ would drop a backlog older than that before it ever reached the DLQ.
 */
export const MESSAGE_RETENTION_SECONDS = 14 * 24 * 60 * 60;

/**
 * Age of a work queue's oldest message that raises its alarm, unless its entry names another
 * (`oldestMessageAlarmSeconds`): work waiting an hour means its consumer is stuck or far behind.
 */
export const DEFAULT_OLDEST_MESSAGE_ALARM_SECONDS = 60 * 60;

/** Visibility timeout for a queue: six times its consumer's timeout, as AWS advises for Lambda event sources. */
export function visibilityTimeoutSeconds(queue: { readonly timeoutSeconds: number }): number {
  return queue.timeoutSeconds * 6;
}
