import { randomUUID } from 'node:crypto';
import { publish, publishBatch } from '../../integrations/queue-publisher.ts';
import { businessMetrics } from '../../observability/metrics.ts';
import { nowIso } from '../dates.ts';
import type { NotificationType } from './notification-item.ts';

export interface NotificationEvent {
  readonly type: NotificationType;
  /** The user whose action caused it; null for notifications without an acting user. */
  readonly actorId: number | null;
  readonly title: string;
  readonly message: string;
  readonly actionUrl: string;
  readonly objectId: number | null;
  readonly objectType: string;
  /** The event's own e-mail already went out (the synchronous invitation e-mail): no notification e-mail. */
  readonly alreadyEmailed?: boolean;
}

export interface NotificationEmission extends NotificationEvent {
  readonly recipientId: number;
}

/**
 * The notification service other domains call (decisions.md, Notifications): records the event as one message on
 * the `notify` queue and returns; the `notify` worker (store-notification-events.ts) stores the notifications, moves
 * the recipients' counters and queues the e-mails their preferences ask for, usually within a second. Never
 * notifies the actor. The request makes no DynamoDB call for it, and no write any other request races with.
 *
 * A failure to send throws: callers log it and never fail the request whose write the event reports.
 * A route whose use case calls this needs `sendTo: ['notify']` in its catalogue line.
 */
export async function emitNotification(emission: NotificationEmission): Promise<void> {
  await emitNotifications([emission.recipientId], emission);
}

const MAX_RECIPIENTS_PER_MESSAGE = 1000;

/** The batch form: one event to several recipients (the actor and duplicates are dropped), still one message. */
export async function emitNotifications(
  recipientIds: readonly number[],
  event: NotificationEvent,
): Promise<void> {
  const recipients = [...new Set(recipientIds)].filter((id) => id !== event.actorId);
  if (recipients.length === 0) return;
  const occurredAt = nowIso();
  // One message per event; an audience beyond one message's limit (never seen: space staff) takes several.
  const messages = [];
  for (let start = 0; start < recipients.length; start += MAX_RECIPIENTS_PER_MESSAGE) {
    messages.push({
      ...eventFields(event, occurredAt),
      recipient_ids: recipients.slice(start, start + MAX_RECIPIENTS_PER_MESSAGE),
    });
  }
  const [only, ...others] = messages;
  if (only && others.length === 0) await publish('notify', only);
  else await publishBatch('notify', messages);
  for (const _ of recipients) businessMetrics.notificationEmitted(event.type);
}

/**
 * One event to a space's active admins and moderators (`space_join`), still one message: the `notify` worker looks
 * the staff up when it stores the event, so the request makes no read for them. Never the actor (the worker drops
 * them); a redelivery looks again and finds the notifications already stored.
 */
export async function emitToSpaceStaff(spaceId: number, event: NotificationEvent): Promise<void> {
  await publish('notify', { ...eventFields(event, nowIso()), recipient_ids: [], space_staff_of: spaceId });
  // Counted once: only the worker knows how many staff members it reaches.
  businessMetrics.notificationEmitted(event.type);
}

/** The message fields of an event (each message its own id: a redelivery of one message is recognised as one). */
const eventFields = (event: NotificationEvent, occurredAt: string) => ({
  event_id: randomUUID(),
  occurred_at: occurredAt,
  type: event.type,
  actor_id: event.actorId,
  title: event.title,
  message: event.message,
  action_url: event.actionUrl,
  object_id: event.objectId,
  object_type: event.objectType,
  ...(event.alreadyEmailed ? { already_emailed: true } : {}),
});
