import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
import {
  notificationKey,
  notificationStatsKey,
  recipientNotifications,
  recipientNotificationsInState,
  recipientNotificationsOfType,
  recipientNotificationsOfTypeInState,
} from '../../db/keys/notifications.ts';
import { timeCeiling } from '../../db/keys/sort.ts';
import { queryMergedPage } from '../../db/merged-page.ts';
import { type Partition, withSortRange } from '../../db/partition.ts';
import type { PageResult } from '../../db/query-page.ts';
import { getItem, queryItems } from '../../db/reads.ts';
import {
  EMPTY_NOTIFICATION_STATS,
  type NotificationItem,
  NotificationItemSchema,
  type NotificationStats,
  NotificationStatsItemSchema,
  type NotificationType,
} from './notification-item.ts';

/**
 * Notifications and their aggregates, one method per access pattern (shared/db/access-patterns/notifications.md).
 * Every write that changes what a count counts moves the count in the same TransactWriteItems, so totals and
 * unread counts are one GetItem whatever the number of notifications, and never go negative. The bulk actions set
 * a watermark on the stats item instead of touching every notification; every read honours the watermarks
 * (ranges on the sort key, which is `created_at#id`), and a worker tidies the items afterwards.
 */

/** By id, strongly consistent: mark and delete decide on the state they read (watermarks not applied). */
export function findNotificationById(notificationId: number): Promise<NotificationItem | undefined> {
  return getItem(notificationKey(notificationId), NotificationItemSchema, { consistent: true });
}

/** Strongly consistent: a list read right after a bulk action must see its watermark. */
export async function getNotificationStats(userId: number): Promise<NotificationStats> {
  return (
    (await getItem(notificationStatsKey(userId), NotificationStatsItemSchema, { consistent: true })) ??
    EMPTY_NOTIFICATION_STATS
  );
}

/**
 * Raises a recipient's newest creation time to at least `createdAt` (never lowers it): the import does it before
 * storing history newer than what the recipient has, so bulk actions' watermarks keep covering everything stored.
 */
export async function raiseNewestCreatedAt(userId: number, createdAt: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: notificationStatsKey(userId),
        UpdateExpression:
          'SET newest_created_at = :created, entity = if_not_exists(entity, :entity), user_id = :user',
        ConditionExpression: 'attribute_not_exists(newest_created_at) OR newest_created_at < :created',
        ExpressionAttributeValues: {
          ':created': createdAt,
          ':entity': 'notification_stats',
          ':user': userId,
        },
      }),
    );
  } catch (error) {
    // Already at or beyond it.
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

export interface NotificationListQuery {
  readonly userId: number;
  readonly isRead?: boolean | undefined;
  readonly type?: NotificationType | undefined;
  readonly ascending: boolean;
  readonly page: number;
  readonly perPage: number;
  readonly cursor?: string | undefined;
  /** The recipient's stats: their watermarks bound every partition, their counters give the total. */
  readonly stats: NotificationStats;
  readonly total: number;
}

/**
 * One page of a recipient's notifications. Each filter combination has its own partitions, so every list is key
 * conditions with no FilterExpression: none → all; type → by type (type copies); is_read / type + is_read → by
 * state. The watermarks narrow each partition by sort range: nothing at or before the delete watermark; "unread"
 * only after the read watermark; "read" is the read partition plus the part of the unread one the read watermark
 * covers and the tidy worker has not flipped yet, merged in order.
 */
export function queryNotificationPage(query: NotificationListQuery): Promise<PageResult<NotificationItem>> {
  return queryMergedPage({
    sources: listSources(query),
    schema: NotificationItemSchema,
    ascending: query.ascending,
    page: query.page,
    perPage: query.perPage,
    cursor: query.cursor,
    total: query.total,
  });
}

function listSources({ userId, type, isRead, stats }: NotificationListQuery): Partition[] {
  const notDeleted = stats.deleteWatermark === undefined ? undefined : timeCeiling(stats.deleteWatermark);
  const inState = (state: 'READ' | 'UNREAD') =>
    type === undefined
      ? recipientNotificationsInState(userId, state)
      : recipientNotificationsOfTypeInState(userId, type, state);
  if (isRead === undefined) {
    const all =
      type === undefined ? recipientNotifications(userId) : recipientNotificationsOfType(userId, type);
    return [withSortRange(all, { from: notDeleted })];
  }
  if (!isRead) return [withSortRange(inState('UNREAD'), { from: unreadFloor(stats) })];
  const sources = [withSortRange(inState('READ'), { from: notDeleted })];
  const { readWatermark, deleteWatermark } = stats;
  if (readWatermark !== undefined && (deleteWatermark === undefined || readWatermark > deleteWatermark)) {
    sources.push(withSortRange(inState('UNREAD'), { from: notDeleted, to: timeCeiling(readWatermark) }));
  }
  return sources;
}

/** Unread for real: created after both watermarks. */
function unreadFloor(stats: NotificationStats): string | undefined {
  const marks = [stats.readWatermark, stats.deleteWatermark].filter((mark) => mark !== undefined);
  return marks.length === 0 ? undefined : timeCeiling(marks.reduce((a, b) => (b > a ? b : a)));
}

/** The newest unread notifications of a recipient, at most `limit` (one Query). */
export function queryNewestUnread(
  userId: number,
  limit: number,
  stats: NotificationStats,
): Promise<NotificationItem[]> {
  return queryItems(
    withSortRange(recipientNotificationsInState(userId, 'UNREAD'), { from: unreadFloor(stats) }),
    NotificationItemSchema,
    { ascending: false, limit },
  );
}

/** Unread notifications created after `since` (undefined: any), newest first, at most `limit`: the digest's list. */
export function queryUnreadSince(
  userId: number,
  since: string | undefined,
  stats: NotificationStats,
  limit: number,
): Promise<NotificationItem[]> {
  const floors = [unreadFloor(stats), since === undefined ? undefined : timeCeiling(since)].filter(
    (floor) => floor !== undefined,
  );
  return queryItems(
    withSortRange(recipientNotificationsInState(userId, 'UNREAD'), { from: floors.sort().at(-1) }),
    NotificationItemSchema,
    { ascending: false, limit },
  );
}
