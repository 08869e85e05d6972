import * as v from 'valibot';
import { NOTIFICATION_TYPES } from '../vocabulary/notifications.ts';

const id = v.pipe(v.number(), v.integer(), v.minValue(1));

/**
 * A message on the `notify` queue: one event that notifies some members (a comment, a like, a follow, a join…),
 * recorded by the request that caused it. The worker stores one notification per recipient (never the actor),
 * identified by `event_id` and the recipient, so a redelivered message stores nothing twice.
 */
export const notifyMessageSchema = v.pipe(
  v.object({
    /** Unique per event (a random UUID from the causing request). */
    event_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,64}$/)),
    /** When the event happened (UTC ISO): the notifications' creation time, and the time part of their ids. */
    occurred_at: v.pipe(v.string(), v.isoTimestamp()),
    type: v.picklist(NOTIFICATION_TYPES),
    /** The user whose action caused it; null for notifications without an acting user (`lesson_complete`). */
    actor_id: v.nullable(id),
    recipient_ids: v.pipe(v.array(id), v.maxLength(1000)),
    /**
     * The active admins and moderators of this space are recipients too, looked up by the worker when it stores the
     * event (`space_join`: the request that causes it does not wait for the two role Queries).
     */
    space_staff_of: v.optional(id),
    title: v.string(),
    message: v.string(),
    action_url: v.string(),
    object_id: v.nullable(v.pipe(v.number(), v.integer())),
    object_type: v.string(),
    /** The event's own e-mail already went out (the synchronous invitation e-mail): no notification e-mail. */
    already_emailed: v.optional(v.boolean()),
  }),
  v.check(
    (message) => message.recipient_ids.length > 0 || message.space_staff_of !== undefined,
    'a notify message names its recipients',
  ),
);

export type NotifyMessage = v.InferOutput<typeof notifyMessageSchema>;
