import type { Caller } from '../auth/index.ts';
import { nowIso, toIsoDateTime } from '../dates.ts';
import { loadOwnNotification } from './load-own-notification.ts';
import { markNotificationsRead } from './notification-repository.ts';

const ALREADY_READ = 'Notification is already marked as read.';

/**
 * Marks one notification read. The flip is conditional on `is_read = false`, so a concurrent mark (or mark all)
 * cannot decrement the unread count twice; the loser re-reads and answers the already-read message with the
 * original `read_at`.
 */
export async function markNotificationRead(caller: Caller, notificationId: number) {
  for (;;) {
    const item = await loadOwnNotification(caller, notificationId);
    if (item.is_read && item.read_at) {
      return {
        message: ALREADY_READ,
        data: { id: item.id, is_read: true as const, read_at: toIsoDateTime(item.read_at) },
      };
    }
    const readAt = nowIso();
    if (await markNotificationsRead(caller.id, [item], readAt)) {
      return {
        message: 'Notification marked as read.',
        data: { id: item.id, is_read: true as const, read_at: toIsoDateTime(readAt) },
      };
    }
  }
}
