import * as v from 'valibot';
import { NOTIFICATION_TYPES } from '../vocabulary/notifications.ts';

const id = v.pipe(v.number(), v.integer(), v.minValue(1));

/**
 * A message on the `notify` queue: one event that notifies some members (a comment, a like, a follow, a join…),
 * recorded by the request that caused it. The worker stores one notification per recipient (never the actor),
 * identified by `event_id` and the recipient, so a redelivered message stores nothing twice.
 */
export const notifyMessageSchema = v.object({
  /** Unique per event (a random UUID from the causing request). */
  event_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,64}$/)),
  /** When the event happened (UTC ISO): the notifications' creation time, and the time part of their ids. */
  occurred_at: v.pipe(v.string(), v.isoTimestamp()),
  type: v.picklist(NOTIFICATION_TYPES),
  /** The user whose action caused it; null for notifications without an acting user (`lesson_complete`). */
  actor_id: v.nullable(id),
  recipient_ids: v.pipe(v.array(id), v.minLength(1), v.maxLength(1000)),
  title: v.string(),
  message: v.string(),
  action_url: v.string(),
  object_id: v.nullable(v.pipe(v.number(), v.integer())),
  object_type: v.string(),
  /** The event's own e-mail already went out (the synchronous invitation e-mail): no notification e-mail. */
  already_emailed: v.optional(v.boolean()),
});

export type NotifyMessage = v.InferOutput<typeof notifyMessageSchema>;
