import * as v from 'valibot';
import {
  notificationKey,
  notificationState,
  notificationTypeCopyKey,
  recipientNotifications,
  recipientNotificationsInState,
  recipientNotificationsOfType,
  recipientNotificationsOfTypeInState,
} from '../../db/keys/notifications.ts';
import { timeSort } from '../../db/keys/sort.ts';
import { indexEntry } from '../../db/partition.ts';
import { NOTIFICATION_TYPES, type NotificationType } from '../../vocabulary/notifications.ts';

export type { NotificationType };

const integer = v.pipe(v.number(), v.integer());

/**
 * A notification as stored (`NOTIF#<id>` / `NOTIF`, and its type copy `NOTIF#<id>` / `NOTIF#TYPE`). Reads parse
 * with this schema; mappers turn it into the contract shape.
 */
export const NotificationItemSchema = v.object({
  id: integer,
  user_id: integer,
  type: v.picklist(NOTIFICATION_TYPES),
  title: v.string(),
  message: v.string(),
  action_url: v.string(),
  is_read: v.boolean(),
  /** null for notifications without an acting user (e.g. `lesson_complete`). */
  actor_id: v.nullable(integer),
  object_id: v.nullable(integer),
  object_type: v.string(),
  /** UTC ISO timestamps. */
  created_at: v.string(),
  read_at: v.nullable(v.string()),
});
export type NotificationItem = v.InferOutput<typeof NotificationItemSchema>;

/**
 * The notification item: by id, and listed in three partitions of its recipient: all (G1), its read state (G2),
 * its type and read state (G3). Marking read moves the last two.
 */
export function storedNotification(item: NotificationItem) {
  const state = notificationState(item.is_read);
  const sort = timeSort(item.created_at, item.id);
  return {
    ...notificationKey(item.id),
    entity: 'notification',
    ...item,
    ...indexEntry(recipientNotifications(item.user_id), sort),
    ...indexEntry(recipientNotificationsInState(item.user_id, state), sort),
    ...indexEntry(recipientNotificationsOfTypeInState(item.user_id, item.type, state), sort),
  };
}

/** The type copy: the same attributes, listed by type in any state (an item has only one G1 entry). */
export function storedNotificationTypeCopy(item: NotificationItem) {
  return {
    ...notificationTypeCopyKey(item.id),
    entity: 'notification_type_copy',
    ...item,
    ...indexEntry(recipientNotificationsOfType(item.user_id, item.type), timeSort(item.created_at, item.id)),
  };
}

/**
 * The counters one notification contributes to its recipient's stats item (`notificationStatsKey`): `total`,
 * `type:<t>`, and while unread `unread`, `unread:<t>`. Creation adds them; deletion subtracts them.
 */
export function notificationCounts(item: Pick<NotificationItem, 'type' | 'is_read'>): Record<string, number> {
  return {
    total: 1,
    [`type:${item.type}`]: 1,
    ...(item.is_read ? {} : { unread: 1, [`unread:${item.type}`]: 1 }),
  };
}

/** The recipient's maintained aggregates, as read from the stats item. */
export interface NotificationStats {
  readonly total: number;
  readonly unread: number;
  readonly byType: Readonly<Record<string, { total: number; unread: number }>>;
}

/** The stats item holds flat counters whose names carry the type (`type:mention`), so it is parsed by name. */
export const NotificationStatsItemSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform((raw): NotificationStats => {
    const byType: Record<string, { total: number; unread: number }> = {};
    for (const [name, value] of Object.entries(raw)) {
      const match = /^(type|unread):(.+)$/.exec(name);
      if (!match?.[2]) continue;
      const entry = byType[match[2]] ?? { total: 0, unread: 0 };
      byType[match[2]] = entry;
      if (match[1] === 'type') entry.total = Number(value);
      else entry.unread = Number(value);
    }
    return { total: Number(raw.total ?? 0), unread: Number(raw.unread ?? 0), byType };
  }),
);

export const EMPTY_NOTIFICATION_STATS: NotificationStats = { total: 0, unread: 0, byType: {} };
