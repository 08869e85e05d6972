import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isOwner } from '../auth/index.ts';
import { isDeletedInBulk, type NotificationItem, type NotificationStats } from './notification-item.ts';
import { notificationNotFound } from './notification-errors.ts';
import { findNotificationById, getNotificationStats } from './notification-repository.ts';

/**
 * A notification the caller may act on, with the stats its decision depends on: unknown id (or one a delete-all
 * covers) → 404 notification_not_found; another user's → 403.
 */
export async function loadOwnNotification(
  caller: Caller,
  notificationId: number,
): Promise<{ item: NotificationItem; stats: NotificationStats }> {
  const [item, stats] = await Promise.all([
    findNotificationById(notificationId),
    getNotificationStats(caller.id),
  ]);
  if (!item) throw notificationNotFound();
  if (!isOwner(caller, item.user_id))
    throw forbidden('Sorry, you are not allowed to access this notification.');
  if (isDeletedInBulk(item, stats)) throw notificationNotFound();
  return { item, stats };
}

/** Each attempt re-reads; only concurrent changes make one fail, so a handful of attempts always settles. */
export const MAX_ATTEMPTS = 8;
