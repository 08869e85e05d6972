import { notificationStatsKey } from '../../../db/keys/notifications.ts';
import {
  type NotificationItem,
  notificationCounts,
  storedNotification,
  storedNotificationTypeCopy,
} from '../../notifications/index.ts';
import { ImportError, itemName } from '../import-error.ts';
import { NOTIFICATION_OBJECT_TYPES } from '../import-schema.ts';
import type { RefKind } from '../reference-scope.ts';
import { defineSection } from './section.ts';

/** `object_type` values whose `object` may name an item of the file; `user` names only the file's users. */
const OBJECT_KINDS: Record<(typeof NOTIFICATION_OBJECT_TYPES)[number], RefKind> = {
  feed: 'feed',
  comment: 'comment',
  space: 'space',
  course: 'course',
  topic: 'topic',
  user: 'user',
};
const objectKind = (objectType: string): RefKind | undefined =>
  (OBJECT_KINDS as Record<string, RefKind | undefined>)[objectType];

/**
 * `notifications`: stored as they are (no e-mail), laid out by the notifications domain (the item, its type copy)
 * and counted on the recipient's stats with `notificationCounts`, in the same transaction. A rollback deletes one
 * only while its read state is as imported, since marking it read moved the counters.
 */
export const notificationsSection = defineSection({
  name: 'notifications',

  resolve(notifications, scope) {
    notifications.forEach((notification, i) => {
      const where = itemName('notifications', i);
      scope.user(notification.user, `${where}: user`);
      if (notification.actor !== null) scope.user(notification.actor, `${where}: actor`);
      const object = notification.object;
      if (typeof object !== 'string') return;
      const kind = objectKind(notification.object_type);
      if (kind === undefined)
        throw new ImportError(
          `${where}: object: a ref needs object_type ${NOTIFICATION_OBJECT_TYPES.join(', ')}`,
        );
      scope.require(kind, object, `${where}: object`, notification.object_type);
    });
  },

  ids: (notifications) => ({ notification: notifications.length }),

  build(notifications, context) {
    return notifications.map((notification, i) => {
      const id = context.takeId('notification');
      const createdAt = notification.created_at ?? context.now;
      const object = notification.object;
      const kind = objectKind(notification.object_type);
      const item: NotificationItem = {
        id,
        user_id: context.userId(notification.user),
        type: notification.type,
        title: notification.title,
        message: notification.message,
        action_url: notification.action_url,
        is_read: notification.is_read,
        actor_id: notification.actor === null ? null : context.userId(notification.actor),
        object_id: typeof object === 'string' ? context.idOf(kind!, object) : object,
        object_type: notification.object_type,
        created_at: createdAt,
        read_at: notification.is_read ? (notification.read_at ?? createdAt) : null,
      };
      context.plan.unit(
        itemName('notifications', i),
        [{ item: storedNotification(item), unchanged: ['is_read'] }, storedNotificationTypeCopy(item)],
        [{ key: notificationStatsKey(item.user_id), deltas: notificationCounts(item) }],
      );
      return id;
    });
  },
});
