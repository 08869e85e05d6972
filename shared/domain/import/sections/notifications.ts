import {
  findNotificationStatsOfUsers,
  importedNotification,
  type NotificationItem,
  type NotificationStats,
  newRecipientStats,
  raiseRecipientsNewest,
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
/** The kind of item a notification's `object` ref names, by its `object_type`; refused when it names none. */
function objectKind(objectType: string, where: string): RefKind {
  const kind = (OBJECT_KINDS as Record<string, RefKind | undefined>)[objectType];
  if (kind === undefined)
    throw new ImportError(
      `${where}: object: a ref needs object_type ${NOTIFICATION_OBJECT_TYPES.join(', ')}`,
    );
  return kind;
}

/**
 * Existing recipients by user id: their notification stats when the import read them, or null when they have
 * none yet (the import then creates the stats item). Users the file itself creates are not in it.
 */
type Recipients = Map<number, NotificationStats | null>;

/**
 * `notifications`: stored as they are (no e-mail), laid out and counted on the recipient's stats by the
 * notifications domain (`importedNotification`), in the same transaction. A rollback deletes one
 * only while its read state is as imported, since marking it read moved the counters.
 *
 * Bulk actions cover "everything up to the recipient's newest creation time", so the import keeps that time at
 * or above everything it stores: a new user's stats item is created with it, an existing recipient's is raised
 * before the import writes (raising is always safe). History the recipient has since marked read in bulk is
 * stored read; history older than their last delete-all is refused. Counts on an existing recipient require the
 * watermarks not to have moved since they were read, so a bulk action racing the import aborts it, all or nothing.
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
      const kind = objectKind(notification.object_type, where);
      scope.require(kind, object, `${where}: object`, notification.object_type);
    });
  },

  ids: (notifications) => ({ notification: notifications.length }),

  async prepare(notifications, context): Promise<Recipients> {
    const recipients = [...new Set(notifications.flatMap((n) => context.existingUserId(n.user) ?? []))];
    const stats = await findNotificationStatsOfUsers(recipients);
    // Recipients with a stats item get its newest creation time raised to the newest they are about to receive
    // (an item without created_at gets the import's time: now). Those without one get it created by the import.
    const { now } = context;
    const newest = new Map<number, string>();
    for (const notification of notifications) {
      const userId = context.existingUserId(notification.user);
      if (userId === undefined || !stats.has(userId)) continue;
      const createdAt = notification.created_at ?? now;
      if ((newest.get(userId) ?? '') < createdAt) newest.set(userId, createdAt);
    }
    await raiseRecipientsNewest(newest);
    return new Map(recipients.map((userId) => [userId, stats.get(userId) ?? null]));
  },

  build(notifications, context, recipients) {
    const newestOfNewUser = new Map<number, string>();
    return notifications.map((notification, i) => {
      const id = context.takeId('notification');
      const createdAt = notification.created_at ?? context.now;
      const object = notification.object;
      let item: NotificationItem = {
        id,
        user_id: context.userId(notification.user),
        type: notification.type,
        title: notification.title,
        message: notification.message,
        action_url: notification.action_url,
        is_read: notification.is_read,
        actor_id: notification.actor === null ? null : context.userId(notification.actor),
        object_id:
          typeof object === 'string'
            ? context.idOf(objectKind(notification.object_type, itemName('notifications', i)), object)
            : object,
        object_type: notification.object_type,
        created_at: createdAt,
        read_at: notification.is_read ? (notification.read_at ?? createdAt) : null,
      };
      const label = itemName('notifications', i);
      const existing = recipients?.get(item.user_id) ?? undefined;
      let condition:
        | { expression: string; names: Record<string, string>; values: Record<string, unknown> }
        | undefined;
      if (existing !== undefined) {
        const state = existing;
        if (state?.deleteWatermark !== undefined && item.created_at <= state.deleteWatermark) {
          throw new ImportError(
            `${label}: created_at is before the recipient's last delete-all of notifications`,
          );
        }
        if (!item.is_read && state?.readWatermark !== undefined && item.created_at <= state.readWatermark) {
          // The recipient has marked everything up to this time read: it arrives read, as it would be shown.
          item = { ...item, is_read: true, read_at: state.readMarkedAt ?? state.readWatermark };
        }
        condition = watermarksAsRead(state);
      } else {
        const seen = newestOfNewUser.get(item.user_id);
        if (seen === undefined || createdAt > seen) newestOfNewUser.set(item.user_id, createdAt);
        const stats = newRecipientStats(item.user_id, newestOfNewUser.get(item.user_id));
        context.plan.aggregate(stats.key, stats.base);
      }
      const stored = importedNotification(item);
      context.plan.unit(label, stored.puts, [{ ...stored.stats, ...(condition ? { condition } : {}) }]);
      return id;
    });
  },
});

/** The recipient's bulk-action watermarks must be as the import read them (absent, or the same value). */
function watermarksAsRead(state: NotificationStats | undefined) {
  const values: Record<string, unknown> = {};
  const pin = (name: string, placeholder: string, value: string | undefined) => {
    if (value === undefined) return `attribute_not_exists(${name})`;
    values[placeholder] = value;
    return `${name} = ${placeholder}`;
  };
  return {
    expression: `${pin('#readMark', ':importSeenRead', state?.readWatermark)} AND ${pin('#deleteMark', ':importSeenDelete', state?.deleteWatermark)}`,
    names: { '#readMark': 'read_watermark', '#deleteMark': 'delete_watermark' },
    values,
  };
}
