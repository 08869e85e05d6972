import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
import {
  notificationKey,
  notificationStatsKey,
  notificationTypeCopyKey,
  recipientNotifications,
  recipientNotificationsInState,
  recipientNotificationsOfType,
  recipientNotificationsOfTypeInState,
} from '../../db/keys/notifications.ts';
import { timeCeiling } from '../../db/keys/sort.ts';
import { queryMergedPage } from '../../db/merged-page.ts';
import { type Partition, withSortRange } from '../../db/partition.ts';
import type { PageResult } from '../../db/query-page.ts';
import { getItem, parseItem, queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import { NOTIFICATION_TYPES } from '../../vocabulary/notifications.ts';
import {
  EMPTY_NOTIFICATION_STATS,
  type NotificationItem,
  NotificationItemSchema,
  type NotificationStats,
  NotificationStatsItemSchema,
  type NotificationType,
  notificationCounts,
  storedNotification,
  storedNotificationTypeCopy,
} from './notification-item.ts';

/**
 * Notifications and their aggregates, one method per access pattern (shared/db/access-patterns/notifications.md).
 * Every write that changes what a count counts moves the count in the same TransactWriteItems, so totals and
 * unread counts are one GetItem whatever the number of notifications, and never go negative. The bulk actions set
 * a watermark on the stats item instead of touching every notification; every read honours the watermarks
 * (ranges on the sort key, which is `created_at#id`), and a worker tidies the items afterwards.
 */

/**
 * The writes that store one notification with its type copy and count it. The stats update requires the
 * notification to be newer than every one already committed for the recipient (and so newer than any watermark):
 * per-recipient creation times are strictly increasing, which is what lets a watermark cover exactly what exists.
 */
export function notificationCreationActions(item: NotificationItem): TransactAction[] {
  return [
    putAction(storedNotification(item), { ifAbsent: true }),
    putAction(storedNotificationTypeCopy(item)),
    counterUpdate(notificationStatsKey(item.user_id), notificationCounts(item), {
      set: { newest_created_at: item.created_at, entity: 'notification_stats', user_id: item.user_id },
      condition: {
        expression: 'attribute_not_exists(#newest) OR #newest < :created',
        names: { '#newest': 'newest_created_at' },
        values: { ':created': item.created_at },
      },
    }),
  ];
}

/** Stores a notification; `stale` when a newer one was committed for the recipient first (restamp and retry). */
export async function insertNotification(item: NotificationItem): Promise<'stored' | 'stale'> {
  const outcome = await transactWriteIfConditionsHold(notificationCreationActions(item));
  if (outcome.written) return 'stored';
  if (outcome.failed.includes(2)) return 'stale';
  throw new Error(`Notification ${item.id} already exists`);
}

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
  return marks.length === 0 ? undefined : timeCeiling(marks.sort().at(-1)!);
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

/** The stats update of a per-item change holds only while the watermarks it was decided against stand. */
function watermarksUnchanged(stats: NotificationStats) {
  const pin = (name: string, placeholder: string, value: string | undefined) =>
    value === undefined ? `attribute_not_exists(${name})` : `${name} = ${placeholder}`;
  const values: Record<string, unknown> = {};
  if (stats.readWatermark !== undefined) values[':seenRead'] = stats.readWatermark;
  if (stats.deleteWatermark !== undefined) values[':seenDelete'] = stats.deleteWatermark;
  return {
    expression: `${pin('#readMark', ':seenRead', stats.readWatermark)} AND ${pin('#deleteMark', ':seenDelete', stats.deleteWatermark)}`,
    names: { '#readMark': 'read_watermark', '#deleteMark': 'delete_watermark' },
    values,
  };
}

/**
 * Flips unread notifications of one recipient to read in one transaction, each with the condition `is_read = false`,
 * and moves the unread counters by exactly the number flipped. Answers false when any condition failed (another
 * request marked or deleted one meanwhile, or a bulk action moved a watermark): nothing was written, and the
 * caller re-reads and decides again.
 */
export async function markNotificationsRead(
  userId: number,
  items: readonly Pick<NotificationItem, 'id' | 'type'>[],
  readAt: string,
  stats: NotificationStats,
): Promise<boolean> {
  if (items.length === 0) return true;
  const unread = new CounterDeltas();
  for (const item of items) unread.add('unread', -1).add(`unread:${item.type}`, -1);
  const actions = [
    ...items.flatMap((item) => flipToReadActions(userId, item, readAt)),
    counterUpdate(notificationStatsKey(userId), unread, { condition: watermarksUnchanged(stats) }),
  ];
  return writeUnlessChanged(actions);
}

/** The two writes that move one notification (and its type copy) from unread to read, counters aside. */
function flipToReadActions(userId: number, item: Pick<NotificationItem, 'id' | 'type'>, readAt: string) {
  const byState = recipientNotificationsInState(userId, 'READ');
  const byTypeAndState = recipientNotificationsOfTypeInState(userId, item.type, 'READ');
  return [
    updateAction(notificationKey(item.id), {
      UpdateExpression:
        'SET is_read = :true, read_at = :readAt, #statePk = :statePk, #typeStatePk = :typeStatePk',
      ConditionExpression: 'attribute_exists(pk) AND is_read = :false',
      ExpressionAttributeNames: {
        '#statePk': byState.partitionKey,
        '#typeStatePk': byTypeAndState.partitionKey,
      },
      ExpressionAttributeValues: {
        ':true': true,
        ':false': false,
        ':readAt': readAt,
        ':statePk': byState.value,
        ':typeStatePk': byTypeAndState.value,
      },
    }),
    updateAction(notificationTypeCopyKey(item.id), {
      UpdateExpression: 'SET is_read = :true, read_at = :readAt',
      ExpressionAttributeValues: { ':true': true, ':readAt': readAt },
    }),
  ];
}

/**
 * Deletes notifications of one recipient with their type copies in one transaction, each on the condition that
 * it still has the read state the caller saw, so the counters move by exactly what was deleted (a notification a
 * mark-all covers counts as read). Answers false when any condition failed (nothing written).
 */
export async function deleteNotifications(
  userId: number,
  items: readonly Pick<NotificationItem, 'id' | 'type' | 'is_read' | 'created_at'>[],
  stats: NotificationStats,
): Promise<boolean> {
  if (items.length === 0) return true;
  const counts = new CounterDeltas();
  const actions: TransactAction[] = [];
  for (const item of items) {
    const readLogically =
      item.is_read || (stats.readWatermark !== undefined && item.created_at <= stats.readWatermark);
    for (const [name, amount] of Object.entries(
      notificationCounts({ type: item.type, is_read: readLogically }),
    )) {
      counts.add(name, -amount);
    }
    actions.push(
      deleteAction(notificationKey(item.id), {
        ConditionExpression: 'attribute_exists(pk) AND is_read = :seen',
        ExpressionAttributeValues: { ':seen': item.is_read },
      }),
      deleteAction(notificationTypeCopyKey(item.id)),
    );
  }
  actions.push(
    counterUpdate(notificationStatsKey(userId), counts, { condition: watermarksUnchanged(stats) }),
  );
  return writeUnlessChanged(actions);
}

async function writeUnlessChanged(actions: TransactAction[]): Promise<boolean> {
  return (await transactWriteIfConditionsHold(actions)).written;
}

// ---- Bulk actions: one write each, whatever the number of notifications ---------------------------------------

const ZERO_UNREAD = Object.fromEntries(
  NOTIFICATION_TYPES.map((type, index) => [`#u${index}`, `unread:${type}`]),
);
const ZERO_TYPES = Object.fromEntries(
  NOTIFICATION_TYPES.map((type, index) => [`#t${index}`, `type:${type}`]),
);

/**
 * Marks everything the recipient has read in one UpdateItem: the read watermark becomes the newest creation time
 * (so it covers exactly the notifications that exist) and the unread counters become 0. Answers how many were
 * unread, and the watermark set (undefined when the recipient never had a notification).
 */
export async function markAllRead(
  userId: number,
  markedAt: string,
): Promise<{ marked: number; watermark: string | undefined }> {
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: notificationStatsKey(userId),
        UpdateExpression: `SET read_watermark = newest_created_at, read_marked_at = :markedAt, unread = :zero, ${Object.keys(
          ZERO_UNREAD,
        )
          .map((name) => `${name} = :zero`)
          .join(', ')}`,
        ConditionExpression: 'attribute_exists(newest_created_at)',
        ExpressionAttributeNames: ZERO_UNREAD,
        ExpressionAttributeValues: { ':zero': 0, ':markedAt': markedAt },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const old = parseItem(NotificationStatsItemSchema, result.Attributes ?? {});
    return { marked: old.unread, watermark: old.newestCreatedAt };
  } catch (error) {
    if (isConditionalCheckFailed(error)) return { marked: 0, watermark: undefined };
    throw error;
  }
}

/** Deletes everything the recipient has in one UpdateItem: the delete watermark and every counter to 0. */
export async function deleteAllInBulk(
  userId: number,
): Promise<{ deleted: number; watermark: string | undefined }> {
  try {
    const counters = { ...ZERO_UNREAD, ...ZERO_TYPES };
    const result = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: notificationStatsKey(userId),
        UpdateExpression: `SET delete_watermark = newest_created_at, #total = :zero, unread = :zero, ${Object.keys(
          counters,
        )
          .map((name) => `${name} = :zero`)
          .join(', ')}`,
        ConditionExpression: 'attribute_exists(newest_created_at)',
        ExpressionAttributeNames: { ...counters, '#total': 'total' },
        ExpressionAttributeValues: { ':zero': 0 },
        ReturnValues: 'ALL_OLD',
      }),
    );
    const total = Number(result.Attributes?.total ?? 0);
    const watermark = result.Attributes?.newest_created_at;
    return { deleted: total, watermark: typeof watermark === 'string' ? watermark : undefined };
  } catch (error) {
    if (isConditionalCheckFailed(error)) return { deleted: 0, watermark: undefined };
    throw error;
  }
}

/**
 * Tidy after a mark-all: flips up to `limit` notifications the read watermark covers that are still stored as
 * unread (oldest first). Counters do not move: they already count them as read. Answers how many were flipped
 * and whether any remain.
 */
export async function flipCoveredToRead(
  userId: number,
  watermark: string,
  readAt: string,
  limit: number,
): Promise<{ flipped: number; more: boolean }> {
  const covered = withSortRange(recipientNotificationsInState(userId, 'UNREAD'), {
    to: timeCeiling(watermark),
  });
  const items = await queryItems(covered, NotificationItemSchema, { ascending: true, limit: limit + 1 });
  const batch = items.slice(0, limit);
  let flipped = 0;
  for (let start = 0; start < batch.length; start += 12) {
    const slice = batch.slice(start, start + 12);
    const actions = slice.flatMap((item) => flipToReadActions(userId, item, readAt));
    if ((await transactWriteIfConditionsHold(actions)).written) {
      flipped += slice.length;
      continue;
    }
    // One was marked or deleted meanwhile: the rest one by one; a changed one needs no tidying.
    for (const item of slice) {
      if ((await transactWriteIfConditionsHold(flipToReadActions(userId, item, readAt))).written)
        flipped += 1;
    }
  }
  return { flipped, more: items.length > limit };
}

/** Tidy after a delete-all: removes up to `limit` notifications the delete watermark covers (oldest first). */
export async function purgeCovered(
  userId: number,
  watermark: string,
  limit: number,
): Promise<{ purged: number; more: boolean }> {
  const covered = withSortRange(recipientNotifications(userId), { to: timeCeiling(watermark) });
  const items = await queryItems(covered, NotificationItemSchema, { ascending: true, limit: limit + 1 });
  const batch = items.slice(0, limit);
  const keys = batch.flatMap((item) => [notificationKey(item.id), notificationTypeCopyKey(item.id)]);
  for (let start = 0; start < keys.length; start += 25) {
    let pending: Record<string, unknown>[] = keys
      .slice(start, start + 25)
      .map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
      const result = await db().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }),
      );
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
    }
  }
  return { purged: batch.length, more: items.length > limit };
}
