import type { Caller } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import type { NotificationItem } from './notification-item.ts';
import { markNotificationsRead, queryRecipientNotifications } from './notification-repository.ts';

/**
 * Flips per transaction: two writes each (notification + type copy) plus the one stats update; the stats item may
 * appear once per transaction, so a batch carries N flips and one `ADD unread -N`.
 */
export const FLIPS_PER_TRANSACTION = 12;

/**
 * Marks every unread notification of the caller read. Each flip is conditional on `is_read = false` and moves the
 * counters in its own transaction batch, so notifications created meanwhile keep their unread count and nothing is
 * decremented twice. When a batch is cancelled (one item was marked or deleted concurrently) its items are retried
 * one by one. `marked_count` is what this call actually flipped.
 */
export async function markAllNotificationsRead(caller: Caller) {
  const readAt = nowIso();
  let marked = 0;
  for await (const items of queryRecipientNotifications(caller.id, 'unread')) {
    for (let start = 0; start < items.length; start += FLIPS_PER_TRANSACTION) {
      marked += await flipBatch(caller.id, items.slice(start, start + FLIPS_PER_TRANSACTION), readAt);
    }
  }
  return { message: 'All notifications have been marked as read.', data: { marked_count: marked } };
}

async function flipBatch(userId: number, batch: NotificationItem[], readAt: string): Promise<number> {
  // The index is eventually consistent: an item already read may still be listed; its condition then fails.
  const unread = batch.filter((item) => !item.is_read);
  if (await markNotificationsRead(userId, unread, readAt)) return unread.length;
  let flipped = 0;
  for (const item of unread) {
    if (await markNotificationsRead(userId, [item], readAt)) flipped += 1;
  }
  return flipped;
}
