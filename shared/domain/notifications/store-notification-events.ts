import type { NotifyMessage } from '../../messages/index.ts';
import { logger } from '../../observability/logger.ts';
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

/** One received message of the `notify` queue: `receiptId` names it in the answer (the SQS message id). */
export interface ReceivedNotifyMessage {
  readonly receiptId: string;
  readonly message: NotifyMessage;
}

interface Pending extends NewNotification {
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
 * one transaction; then the stored batch goes to `onNotificationsStored` (e-mails). Idempotent: a notification's id
 * comes from its event and recipient, its put is conditional, and a delivery that finds it stored counts nothing.
 * Answers the receipt ids of the messages to deliver again (a recipient whose writes failed); the rest are done.
 */
export async function storeNotificationEvents(received: readonly ReceivedNotifyMessage[]): Promise<Set<string>> {
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

  const failed = new Set<string>();
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

function newPending(message: NotifyMessage, recipientId: number, eventKey: string, receiptId: string): Pending {
  const item: NotificationItem = {
    id: notificationIdOf(eventKey, message.occurred_at),
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
  return { item, eventKey, receiptIds: new Set([receiptId]), alreadyEmailed: message.already_emailed ?? false };
}

/**
 * Stores one recipient's notifications, a transaction per chunk. A chunk comes back when an id is taken (its own
 * notification from an earlier delivery: done; another event's: the next id) or when a bulk action's watermark
 * reached it (restamped just after the watermark, so what the bulk action covered stays exactly what existed).
 */
async function storeForRecipient(recipientId: number, entries: Pending[]): Promise<StoredNotification[]> {
  const done: StoredNotification[] = [];
  let pending = entries;
  for (let round = 0; pending.length > 0; round++) {
    if (round >= MAX_ROUNDS) throw new Error(`notifications of recipient ${recipientId} kept being refused`);
    const next: Pending[] = [];
    for (let start = 0; start < pending.length; start += MAX_NOTIFICATIONS_PER_TRANSACTION) {
      const chunk = pending.slice(start, start + MAX_NOTIFICATIONS_PER_TRANSACTION);
      await raiseNewestCreatedAt(recipientId, chunk.map((entry) => entry.item.created_at).sort().at(-1)!);
      const outcome = await insertRecipientNotifications(recipientId, chunk);
      if (outcome.kind === 'stored') {
        done.push(...chunk.map((entry) => stored(entry, true)));
      } else if (outcome.kind === 'taken') {
        const keys = await findEventKeysOfNotifications(outcome.ids);
        for (const entry of chunk) {
          const holder = keys.get(entry.item.id);
          if (holder === entry.eventKey) done.push(stored(entry, false));
          else if (holder === undefined) next.push(entry);
          else next.push({ ...entry, item: { ...entry.item, id: entry.item.id + 1 } });
        }
      } else {
        const after = await afterWatermarks(recipientId);
        next.push(...chunk.map((entry) => ({ ...entry, item: { ...entry.item, created_at: after } })));
      }
    }
    pending = next;
  }
  return done;
}

const stored = (entry: Pending, fresh: boolean): StoredNotification => ({
  item: entry.item,
  fresh,
  alreadyEmailed: entry.alreadyEmailed,
});

/** A creation time after both bulk watermarks of the recipient (and not before now). */
async function afterWatermarks(recipientId: number): Promise<string> {
  const { readWatermark, deleteWatermark } = await getNotificationStats(recipientId);
  const marks = [readWatermark, deleteWatermark].map((mark) => (mark === undefined ? 0 : Date.parse(mark) + 1));
  return new Date(Math.max(Date.now(), ...marks)).toISOString();
}
