import type { Caller } from '../auth/index.ts';
import type { NotificationItem } from './notification-item.ts';
import {
  deleteNotifications,
  findNotificationById,
  queryRecipientNotifications,
} from './notification-repository.ts';

/** Deletes per transaction: two deletes each (notification + type copy) plus the one stats update. */
export const DELETES_PER_TRANSACTION = 12;

/**
 * Deletes every notification of the caller. Each delete is conditional on the read state seen, so the counters
 * move by exactly what is deleted even while notifications are marked, deleted or created concurrently. A cancelled
 * batch is retried item by item from a fresh read. `deleted_count` is what this call actually deleted.
 */
export async function deleteAllNotifications(caller: Caller) {
  let deleted = 0;
  for await (const items of queryRecipientNotifications(caller.id, 'all')) {
    for (let start = 0; start < items.length; start += DELETES_PER_TRANSACTION) {
      deleted += await deleteBatch(caller.id, items.slice(start, start + DELETES_PER_TRANSACTION));
    }
  }
  return { message: 'All notifications have been deleted.', data: { deleted_count: deleted } };
}

async function deleteBatch(userId: number, batch: NotificationItem[]): Promise<number> {
  if (await deleteNotifications(userId, batch)) return batch.length;
  let count = 0;
  for (const seen of batch) {
    // Re-read until the conditional delete holds or the item is gone (deleted by someone else: not counted).
    for (let item: NotificationItem | undefined = seen; item; item = await findNotificationById(seen.id)) {
      if (item.user_id !== userId) break;
      if (await deleteNotifications(userId, [item])) {
        count += 1;
        break;
      }
    }
  }
  return count;
}
