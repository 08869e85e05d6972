import type { Caller } from '../auth/index.ts';
import { announceUnreadCount, storedUnreadCount } from './live-announcements.ts';
import { nowIso, toIsoDateTime } from '../dates.ts';
import { loadOwnNotification, MAX_ATTEMPTS } from './load-own-notification.ts';
import { withBulkState } from './notification-item.ts';
import { markNotificationsRead } from './notification-state-repository.ts';

const ALREADY_READ = 'Notification is already marked as read.';

/**
 * Marks one notification read. The flip is conditional on `is_read = false` and on the watermarks it was decided
 * against, so a concurrent mark (or mark all) cannot decrement the unread count twice; the loser re-reads and
 * answers the already-read message with the original `read_at`.
 */
export async function markNotificationRead(caller: Caller, notificationId: number) {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { item, stats } = await loadOwnNotification(caller, notificationId);
    const seen = withBulkState(item, stats);
    if (seen.is_read && seen.read_at) {
      return {
        message: ALREADY_READ,
        data: { id: item.id, is_read: true as const, read_at: toIsoDateTime(seen.read_at) },
      };
    }
    const readAt = nowIso();
    if (await markNotificationsRead(caller.id, [item], readAt, stats)) {
      await announceUnreadCount(caller.id, storedUnreadCount(caller.id));
      return {
        message: 'Notification marked as read.',
        data: { id: item.id, is_read: true as const, read_at: toIsoDateTime(readAt) },
      };
    }
  }
  throw new Error(`Notification ${notificationId} kept changing while being marked read`);
}
