import type { Caller } from '../auth/index.ts';
import { announceUnreadCount, storedUnreadCount } from './live-announcements.ts';
import { loadOwnNotification, MAX_ATTEMPTS } from './load-own-notification.ts';
import { deleteNotifications } from './notification-state-repository.ts';

/**
 * Deletes one notification. The delete is conditional on the read state just read and on the watermarks, so the
 * counters move by what was deleted; if a concurrent change won, re-read and retry; if it is gone, 404.
 */
export async function deleteNotification(caller: Caller, notificationId: number) {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { item, stats } = await loadOwnNotification(caller, notificationId);
    if (await deleteNotifications(caller.id, [item], stats)) {
      await announceUnreadCount(caller.id, storedUnreadCount(caller.id));
      return { message: 'Notification deleted successfully.' };
    }
  }
  throw new Error(`Notification ${notificationId} kept changing while being deleted`);
}
