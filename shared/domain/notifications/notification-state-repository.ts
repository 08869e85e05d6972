import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteItemsInBatches } from '../../db/batch-write.ts';
import { db, tableName } from '../../db/client.ts';
import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
import {
  notificationKey,
  notificationStatsKey,
  notificationTypeCopyKey,
  recipientNotifications,
  recipientNotificationsInState,
  recipientNotificationsOfTypeInState,
} from '../../db/keys/notifications.ts';
import { timeCeiling } from '../../db/keys/sort.ts';
import { withSortRange } from '../../db/partition.ts';
import { parseItem, queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import { NOTIFICATION_TYPES } from '../../vocabulary/notifications.ts';
import {
  type NotificationItem,
  NotificationItemSchema,
  type NotificationStats,
  NotificationStatsItemSchema,
  notificationCounts,
} from './notification-item.ts';

/**
 * Changes of notifications' read state and deletions, one by one and in bulk, each moving the recipient's counters
 * in the same write (shared/db/access-patterns/notifications.md). Per-item changes are conditional on the state and
 * the bulk-action watermarks they were decided against; bulk actions are one write on the stats item, and the tidy
 * worker brings the items in line afterwards without moving a count.
 */

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
  await deleteItemsInBatches(keys);
  return { purged: batch.length, more: items.length > limit };
}
