import * as v from 'valibot';
import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import { notificationKey, notificationStatsKey } from '../../db/keys/notifications.ts';
import { batchGetItems } from '../../db/reads.ts';
import { putAction, type TransactAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import {
  type NotificationItem,
  notificationCounts,
  storedNotification,
  storedNotificationTypeCopy,
} from './notification-item.ts';

/**
 * Creating notifications, for the `notify` worker only (shared/db/access-patterns/notifications.md): a recipient's
 * notifications of one batch and the move of its counters are one TransactWriteItems, so the counts are exact and
 * a batch moves the counter item once, however many notifications it holds for that recipient.
 *
 * Nothing here orders notifications: lists sort on `created_at#id`. What the stats item guards is the bulk actions'
 * watermarks (notification-item.ts): a mark-all or delete-all sets its watermark to `newest_created_at` and covers
 * exactly what exists then. Two rules keep that true with writers in any order, and neither can fail because of
 * another creation:
 * - before the transaction, `newest_created_at` is raised (never lowered) to the batch's newest time
 *   (`raiseNewestCreatedAt`, a conditional UpdateItem that just does nothing when it is already later), so a
 *   watermark set while the batch is in flight covers the batch;
 * - the transaction requires both watermarks to be older than the batch's oldest time, so a batch a watermark
 *   covers is never counted after the bulk action zeroed the counters: it is restamped after the watermark.
 */

/** A notification to store with the key of the event that caused it (see notification-identity.ts). */
export interface NewNotification {
  readonly item: NotificationItem;
  readonly eventKey: string;
}

export type CreationOutcome =
  | { readonly kind: 'stored' }
  /** An id is already taken (by the same notification, or by a colliding one): nothing written. */
  | { readonly kind: 'taken' }
  /** A bulk watermark at or after the batch's oldest creation time: nothing written; restamp after it. */
  | { readonly kind: 'covered' };

/** At most this many notifications per transaction: two puts each and the counter update, under 100 actions. */
export const MAX_NOTIFICATIONS_PER_TRANSACTION = 40;

/** Stores one recipient's notifications (at most MAX_NOTIFICATIONS_PER_TRANSACTION) and counts them. */
export async function insertRecipientNotifications(
  userId: number,
  batch: readonly NewNotification[],
): Promise<CreationOutcome> {
  if (batch.length === 0) return { kind: 'stored' };
  if (batch.length > MAX_NOTIFICATIONS_PER_TRANSACTION)
    throw new Error('Too many notifications for one write');
  // The batch is not empty (above), so the fold has a first value.
  const oldest = batch.map(({ item }) => item.created_at).reduce((a, b) => (b < a ? b : a));
  const counts = new CounterDeltas();
  const actions: TransactAction[] = [];
  for (const { item, eventKey } of batch) {
    if (item.user_id !== userId) throw new Error('A batch holds one recipient');
    counts.addAll(notificationCounts(item));
    actions.push(
      putAction({ ...storedNotification(item), event_key: eventKey }, { ifAbsent: true }),
      putAction(storedNotificationTypeCopy(item)),
    );
  }
  actions.push(
    counterUpdate(notificationStatsKey(userId), counts, {
      setOnCreate: { entity: 'notification_stats', user_id: userId },
      condition: {
        expression:
          '(attribute_not_exists(#rw) OR #rw < :oldest) AND (attribute_not_exists(#dw) OR #dw < :oldest)',
        names: { '#rw': 'read_watermark', '#dw': 'delete_watermark' },
        values: { ':oldest': oldest },
      },
    }),
  );
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return { kind: 'stored' };
  // Only the notification puts (even indexes) and the stats update (the last) carry conditions.
  return outcome.failed.some((index) => index < actions.length - 1) ? { kind: 'taken' } : { kind: 'covered' };
}

const StoredIdentitySchema = v.object({ id: v.number(), event_key: v.optional(v.string()) });

/** The event keys stored on these notification ids (absent ids are missing from the map), one BatchGetItem. */
export async function findEventKeysOfNotifications(ids: readonly number[]): Promise<Map<number, string>> {
  const items = await batchGetItems(ids.map(notificationKey), StoredIdentitySchema, { consistent: true });
  return new Map(items.map((item) => [item.id, item.event_key ?? '']));
}
