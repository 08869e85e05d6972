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
  /**
   * The member whose action caused it. Stored null for `lesson_complete` (the emission never notifies its actor,
   * and here the actor is the recipient): read it through `notificationActorId`.
   */
  actor_id: v.nullable(integer),
  object_id: v.nullable(integer),
  object_type: v.string(),
  /** UTC ISO timestamps. */
  created_at: v.string(),
  read_at: v.nullable(v.string()),
});
export type NotificationItem = v.InferOutput<typeof NotificationItemSchema>;

/**
 * Who acted (decisions.md, Notifications): the stored actor, and for `lesson_complete` the student, who is its
 * recipient (the one notification a member gets for their own action), whatever was stored, so notifications
 * stored before this rule answer the same.
 */
export const notificationActorId = (item: Pick<NotificationItem, 'type' | 'actor_id' | 'user_id'>) =>
  item.type === 'lesson_complete' ? item.user_id : item.actor_id;

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

/**
 * The recipient's maintained aggregates, as read from the stats item. Besides the counters it carries the
 * watermarks of the bulk actions: every notification created at or before `readWatermark` is read, every one at
 * or before `deleteWatermark` is deleted, whatever its own item says until the tidy worker catches up. Counters
 * are always the logical ones. `newestCreatedAt` is at least the newest `created_at` stored for this recipient
 * (raised before every creation, never lowered), and a creation the watermark set from it covers is refused and
 * restamped later (notification-creation-repository.ts), so a watermark covers exactly what was counted before it.
 */
export interface NotificationStats {
  readonly total: number;
  readonly unread: number;
  readonly byType: Readonly<Record<string, { total: number; unread: number }>>;
  readonly newestCreatedAt: string | undefined;
  readonly readWatermark: string | undefined;
  /** When the last mark-all happened: the `read_at` of what it marked. */
  readonly readMarkedAt: string | undefined;
  readonly deleteWatermark: string | undefined;
}

const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

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
    return {
      total: Number(raw.total ?? 0),
      unread: Number(raw.unread ?? 0),
      byType,
      newestCreatedAt: optionalString(raw.newest_created_at),
      readWatermark: optionalString(raw.read_watermark),
      readMarkedAt: optionalString(raw.read_marked_at),
      deleteWatermark: optionalString(raw.delete_watermark),
    };
  }),
);

export const EMPTY_NOTIFICATION_STATS: NotificationStats = {
  total: 0,
  unread: 0,
  byType: {},
  newestCreatedAt: undefined,
  readWatermark: undefined,
  readMarkedAt: undefined,
  deleteWatermark: undefined,
};

/** Deleted by a delete-all, though its item may still be stored until the tidy worker removes it. */
export const isDeletedInBulk = (
  item: Pick<NotificationItem, 'created_at'>,
  stats: NotificationStats,
): boolean => stats.deleteWatermark !== undefined && item.created_at <= stats.deleteWatermark;

/** Read in its own right or by a mark-all whose watermark covers it. */
export const isReadLogically = (
  item: Pick<NotificationItem, 'created_at' | 'is_read'>,
  stats: NotificationStats,
): boolean => item.is_read || (stats.readWatermark !== undefined && item.created_at <= stats.readWatermark);

/** The notification as every reader must see it: the bulk actions' watermarks applied. */
export function withBulkState(item: NotificationItem, stats: NotificationStats): NotificationItem {
  if (item.is_read || !isReadLogically(item, stats)) return item;
  return { ...item, is_read: true, read_at: stats.readMarkedAt ?? stats.readWatermark ?? item.created_at };
}
