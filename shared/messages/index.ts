import type * as v from 'valibot';
import type { QueueName } from '../catalogue/queues.ts';
import { digestMessageSchema } from './digest.ts';
import { sweepFeedMessageSchema } from './feeds.ts';
import { imagesMessageSchema } from './images.ts';
import { mailMessageSchema } from './mail.ts';
import { migrationMessageSchema } from './migrations.ts';
import { tidyNotificationsMessageSchema } from './notifications.ts';
import { notifyMessageSchema } from './notify.ts';
import { detachTopicMessageSchema } from './topics.ts';

/**
 * The message contract of every catalogued queue. The publisher validates what it sends and the worker factory
 * what it receives against the same schema, so a malformed message is refused at both ends. A new queue adds its
 * schema here; the `satisfies` makes a catalogued queue without one a type error.
 */
export const QUEUE_MESSAGES = {
  mail: mailMessageSchema,
  notifications: tidyNotificationsMessageSchema,
  notify: notifyMessageSchema,
  digest: digestMessageSchema,
  migrations: migrationMessageSchema,
  images: imagesMessageSchema,
  topics: detachTopicMessageSchema,
  feeds: sweepFeedMessageSchema,
} as const satisfies Record<QueueName, v.GenericSchema>;

export type QueueMessage<Q extends QueueName> = v.InferOutput<(typeof QUEUE_MESSAGES)[Q]>;

export type { DigestMessage } from './digest.ts';
export type { SweepFeedMessage } from './feeds.ts';
export type { ImagesMessage } from './images.ts';
export type { MailMessage } from './mail.ts';
export type { MigrationMessage } from './migrations.ts';
export type { TidyNotificationsMessage } from './notifications.ts';
export type { NotifyMessage } from './notify.ts';
export type { DetachTopicMessage } from './topics.ts';
