import type { NotifyMessage } from '../../messages/index.ts';
import { logger } from '../../observability/logger.ts';
import { type ReceivedNotifyMessage, withRecipients } from './notification-audience.ts';
import type { NotificationItem } from './notification-item.ts';
import {
  findEventKeysOfNotifications,
  insertRecipientNotifications,
  MAX_NOTIFICATIONS_PER_TRANSACTION,
  type NewNotification,
} from './notification-creation-repository.ts';
import { notificationEventKey, notificationIdOf } from './notification-identity.ts';
import { getNotificationStats, raiseNewestCreatedAt } from './notification-repository.ts';
import { onNotificationsStored, type StoredNotification } from './on-notifications-stored.ts';

export type { ReceivedNotifyMessage };

interface Pending extends NewNotification {
  /** The id the event draws (notification-identity.ts); `item.id` may lie further on after a collision. */
  readonly drawnId: number;
  readonly receiptIds: Set<string>;
  readonly alreadyEmailed: boolean;
}

/** Recipients handled at once: a large batch fans out without opening hundreds of requests. */
const RECIPIENTS_AT_ONCE = 10;
/** Rounds per recipient before giving up (each lost only to a bulk action or an id collision, both rare). */
const MAX_ROUNDS = 20;

/**
 * The `notify` worker's batch (decisions.md, Notifications): every event's notifications, one per recipient and
 * never to the actor, grouped per recipient so each recipient's notifications of the batch and its counters are
 * one transaction; then the stored batch goes to `onNotificationsStored` (e-mails). A space's staff named as the
 * audience are looked up first (notification-audience.ts). Idempotent: a notification's id comes from its event and
 * recipient, its put is conditional, and a delivery that finds it stored counts nothing. Answers the receipt ids of
 * the messages to deliver again (a recipient whose writes failed, or staff that could not be read); the rest are
 * done.
 */
export async function storeNotificationEvents(batch: readonly ReceivedNotifyMessage[]): Promise<Set<string>> {
  const { resolved: received, failed } = await withRecipients(batch);
  const byRecipient = new Map<number, Map<string, Pending>>();
  for (const { receiptId, message } of received) {
    for (const recipientId of new Set(message.recipient_ids)) {
      if (recipientId === message.actor_id) continue;
      const eventKey = notificationEventKey(message.event_id, recipientId);
      const group = byRecipient.get(recipientId) ?? new Map<string, Pending>();
      byRecipient.set(recipientId, group);
      // SQS may hand the same message over twice in one batch: one notification, both receipts.
      const known = group.get(eventKey);
      if (known) known.receiptIds.add(receiptId);
      else group.set(eventKey, newPending(message, recipientId, eventKey, receiptId));
    }
  }

  const stored: StoredNotification[] = [];
  const recipients = [...byRecipient];
  for (let start = 0; start < recipients.length; start += RECIPIENTS_AT_ONCE) {
    await Promise.all(
      recipients.slice(start, start + RECIPIENTS_AT_ONCE).map(async ([recipientId, group]) => {
        const pending = [...group.values()];
        try {
          stored.push(...(await storeForRecipient(recipientId, pending)));
        } catch (error) {
          logger.error('could not store notifications', { recipientId, error });
          for (const entry of pending) for (const id of entry.receiptIds) failed.add(id);
        }
      }),
    );
  }
  try {
    await onNotificationsStored(stored);
  } catch (error) {
    // Everything is stored; the redelivery finds it so and runs this step again.
    logger.error('could not finish a stored notification batch', { error });
    for (const { receiptId } of received) failed.add(receiptId);
  }
  return failed;
}

function newPending(
  message: NotifyMessage,
  recipientId: number,
  eventKey: string,
  receiptId: string,
): Pending {
  const drawnId = notificationIdOf(eventKey, message.occurred_at);
  const item: NotificationItem = {
    id: drawnId,
    user_id: recipientId,
    type: message.type,
    title: message.title,
    message: message.message,
    action_url: message.action_url,
    is_read: false,
    actor_id: message.actor_id,
    object_id: message.object_id,
    object_type: message.object_type,
    created_at: message.occurred_at,
    read_at: null,
  };
  return {
    item,
    eventKey,
    drawnId,
    receiptIds: new Set([receiptId]),
    alreadyEmailed: message.already_emailed ?? false,
  };
}

/**
 * Stores one recipient's notifications, a transaction per chunk. The first try writes every notification at the id
 * its event draws and needs no read. A chunk comes back when an id is taken (by its own notification, from an
 * earlier delivery: done; by another event's: placed further on, see `placeByProbing`), or when a bulk action's
 * watermark reached it (restamped just after the watermark, so what the bulk action covered stays exactly what
 * existed then).
 */
async function storeForRecipient(recipientId: number, entries: Pending[]): Promise<StoredNotification[]> {
  const done: StoredNotification[] = [];
  let pending = entries;
  let probe = new Set(entries.map((entry) => entry.item.id)).size < entries.length;
  for (let round = 0; pending.length > 0; round++) {
    if (round >= MAX_ROUNDS) throw new Error(`notifications of recipient ${recipientId} kept being refused`);
    if (probe) {
      const { existing, placed } = await placeByProbing(pending);
      done.push(...existing.map((entry) => stored(entry, false)));
      pending = placed;
      probe = false;
    }
    const next: Pending[] = [];
    for (let start = 0; start < pending.length; start += MAX_NOTIFICATIONS_PER_TRANSACTION) {
      const chunk = pending.slice(start, start + MAX_NOTIFICATIONS_PER_TRANSACTION);
      if (chunk.length === 0) continue;
      await raiseNewestCreatedAt(
        recipientId,
        // Not empty (skipped above), so the fold has a first value.
        chunk.map((entry) => entry.item.created_at).reduce((a, b) => (b > a ? b : a)),
      );
      const outcome = await insertRecipientNotifications(recipientId, chunk);
      if (outcome.kind === 'stored') {
        done.push(...chunk.map((entry) => stored(entry, true)));
      } else if (outcome.kind === 'taken') {
        next.push(...chunk);
        probe = true;
      } else {
        const after = await afterWatermarks(recipientId);
        next.push(...chunk.map((entry) => ({ ...entry, item: { ...entry.item, created_at: after } })));
      }
    }
    pending = next;
  }
  return done;
}

/**
 * Where each notification lives or goes: from the id its event draws, the first id holding its own event key (it
 * is stored already) or holding nothing and not claimed by another of the batch (in event-key order, so the
 * choice does not depend on the batch's order). A redelivery walks the same ids and finds its own notification
 * (unless one before it on the way was deleted meanwhile, which a collision and a redelivery must also meet).
 */
async function placeByProbing(
  entries: readonly Pending[],
): Promise<{ existing: Pending[]; placed: Pending[] }> {
  const existing: Pending[] = [];
  const placed: Pending[] = [];
  const claimed = new Set<number>();
  let unresolved = [...entries]
    .sort((a, b) => (a.eventKey < b.eventKey ? -1 : 1))
    .map((entry) => ({ ...entry, item: { ...entry.item, id: entry.drawnId } }));
  while (unresolved.length > 0) {
    const holders = await findEventKeysOfNotifications([
      ...new Set(unresolved.map((entry) => entry.item.id)),
    ]);
    const again: Pending[] = [];
    for (const entry of unresolved) {
      const holder = holders.get(entry.item.id);
      if (holder === entry.eventKey) existing.push(entry);
      else if (holder === undefined && !claimed.has(entry.item.id)) {
        claimed.add(entry.item.id);
        placed.push(entry);
      } else again.push({ ...entry, item: { ...entry.item, id: entry.item.id + 1 } });
    }
    unresolved = again;
  }
  return { existing, placed };
}

const stored = (entry: Pending, fresh: boolean): StoredNotification => ({
  item: entry.item,
  fresh,
  alreadyEmailed: entry.alreadyEmailed,
});

/** A creation time after both bulk watermarks of the recipient (and not before now). */
async function afterWatermarks(recipientId: number): Promise<string> {
  const { readWatermark, deleteWatermark } = await getNotificationStats(recipientId);
  const marks = [readWatermark, deleteWatermark].map((mark) =>
    mark === undefined ? 0 : Date.parse(mark) + 1,
  );
  return new Date(Math.max(Date.now(), ...marks)).toISOString();
}
