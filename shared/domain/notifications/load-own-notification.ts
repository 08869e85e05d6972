import { forbidden } from '../../errors/app-error.ts';
import { type Caller, isOwner } from '../auth/index.ts';
import type { NotificationItem } from './notification-item.ts';
import { notificationNotFound } from './notification-errors.ts';
import { findNotificationById } from './notification-repository.ts';

/** A notification the caller may act on: unknown id → 404 notification_not_found; another user's → 403. */
export async function loadOwnNotification(caller: Caller, notificationId: number): Promise<NotificationItem> {
  const item = await findNotificationById(notificationId);
  if (!item) throw notificationNotFound();
  if (!isOwner(caller, item.user_id))
    throw forbidden('Sorry, you are not allowed to access this notification.');
  return item;
}
