import type { Caller } from '../auth/index.ts';
import { loadOwnNotification } from './load-own-notification.ts';
import { deleteNotifications } from './notification-repository.ts';

/**
 * Deletes one notification. The delete is conditional on the read state just read, so the counters move by what
 * was deleted; if a concurrent mark changed the state, re-read and retry; if it is gone, 404.
 */
export async function deleteNotification(caller: Caller, notificationId: number) {
  for (;;) {
    const item = await loadOwnNotification(caller, notificationId);
    if (await deleteNotifications(caller.id, [item])) {
      return { message: 'Notification deleted successfully.' };
    }
  }
}
