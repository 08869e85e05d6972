import * as v from 'valibot';
import { notificationStatsKey } from '../../db/keys/notifications.ts';
import type { ItemKey } from '../../db/partition.ts';
import { batchGetItems, parseItem } from '../../db/reads.ts';
import {
  type NotificationItem,
  type NotificationStats,
  NotificationStatsItemSchema,
  notificationCounts,
  storedNotification,
  storedNotificationTypeCopy,
} from './notification-item.ts';
import { raiseNewestCreatedAt } from './notification-repository.ts';

/**
 * What the operator import may do with notifications (import/sections/notifications.ts), so that it never builds
 * a notification item, key or counter itself: read existing recipients' stats, raise their newest creation time
 * before it writes, and lay out each imported notification (its items and the counts it adds to its recipient).
 */

/** Several recipients' stats in one BatchGetItem (recipients without any are absent from the map). */
export async function findNotificationStatsOfUsers(
  userIds: readonly number[],
): Promise<Map<number, NotificationStats>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Map();
  const items = await batchGetItems(unique.map(notificationStatsKey), StatsWithOwnerSchema, {
    consistent: true,
  });
  return new Map(items.map(({ pk, stats }) => [Number(pk.slice('USER#'.length)), stats]));
}

const StatsWithOwnerSchema = v.pipe(
  v.looseObject({ pk: v.string() }),
  v.transform((raw) => ({ pk: raw.pk, stats: parseItem(NotificationStatsItemSchema, raw) })),
);

/**
 * Raises each existing recipient's newest creation time to the newest notification it is about to receive (never
 * lowers it: raising is always safe), so bulk actions' watermarks keep covering everything stored.
 */
export async function raiseRecipientsNewest(newest: ReadonlyMap<number, string>): Promise<void> {
  await Promise.all([...newest].map(([userId, createdAt]) => raiseNewestCreatedAt(userId, createdAt)));
}

/**
 * One imported notification as the notification domain stores it: the item (a rollback deletes it only while its
 * `is_read` is as imported, since marking it read moved the counters), its type copy, and the counts it adds to
 * its recipient's stats item.
 */
export function importedNotification(item: NotificationItem): {
  readonly puts: readonly [
    { readonly item: Record<string, unknown> & ItemKey; readonly unchanged: readonly string[] },
    Record<string, unknown> & ItemKey,
  ];
  readonly stats: { readonly key: ItemKey; readonly deltas: Readonly<Record<string, number>> };
} {
  return {
    puts: [{ item: storedNotification(item), unchanged: ['is_read'] }, storedNotificationTypeCopy(item)],
    stats: { key: notificationStatsKey(item.user_id), deltas: notificationCounts(item) },
  };
}

/** The stats item the import creates for a recipient that has none (a user of the file), as its first count finds it. */
export const newRecipientStats = (
  userId: number,
  newestCreatedAt: string | undefined,
): { readonly key: ItemKey; readonly base: Readonly<Record<string, unknown>> } => ({
  key: notificationStatsKey(userId),
  base: { entity: 'notification_stats', user_id: userId, newest_created_at: newestCreatedAt },
});
