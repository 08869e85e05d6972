import {
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { failedConditionIndexes, isTransactionConflict } from '../../db/errors.ts';
import {
  notificationByUserIndex,
  notificationByUserStateIndex,
  notificationByUserTypeIndex,
  notificationByUserTypeStateIndex,
  notificationKey,
  notificationState,
  notificationStatsKey,
  notificationTypeCopyKey,
} from '../../db/keys.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import type { IndexName } from '../../db/table-definition.ts';
import type { NotificationItem, NotificationStats, NotificationType } from './notification-item.ts';
import { readMeter } from './read-meter.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Notifications and their aggregates. Access patterns: shared/db/access-patterns/notifications.md. Every write that
 * changes what a count counts moves the count in the same TransactWriteItems (ADD on the stats item), so totals
 * and unread counts are read in one GetItem whatever the number of notifications.
 */

/** Counter deltas for the stats item: `total`, `unread`, `type:<t>`, `unread:<t>`. */
type StatsDelta = Record<string, number>;

function addDelta(delta: StatsDelta, key: string, amount: number): void {
  delta[key] = (delta[key] ?? 0) + amount;
}

function statsUpdate(userId: number, delta: StatsDelta): TransactItem {
  const entries = Object.entries(delta).filter(([, amount]) => amount !== 0);
  return {
    Update: {
      TableName: tableName(),
      Key: notificationStatsKey(userId),
      UpdateExpression: `ADD ${entries.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(
        entries.map(([, amount], index) => [`:c${index}`, amount]),
      ),
    },
  };
}

const CONFLICT_RETRIES = 8;

/**
 * TransactWriteItems, retried with jittered backoff while it loses a conflict with another transaction on the same
 * stats item (concurrent creates, marks, deletes of one recipient). Condition failures are the caller's to decide.
 */
async function transactWrite(items: TransactItem[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * 2 ** attempt));
    }
  }
}

/** The item attributes only (no keys), as stored on both the notification and its type copy. */
function attributesOf(item: NotificationItem): NotificationItem {
  return {
    id: item.id,
    user_id: item.user_id,
    type: item.type,
    title: item.title,
    message: item.message,
    action_url: item.action_url,
    is_read: item.is_read,
    actor_id: item.actor_id,
    object_id: item.object_id,
    object_type: item.object_type,
    created_at: item.created_at,
    read_at: item.read_at,
  };
}

/**
 * The stored items of one notification: the notification itself (by id; all / by state / by type and state on
 * GSI1–GSI3) and its type copy (by type in any state on GSI1). Exposed for bulk loads (the benchmark), which must
 * write exactly what a create writes and then set the stats item to match.
 */
export function storedNotificationItems(item: NotificationItem): Record<string, unknown>[] {
  const state = notificationState(item.is_read);
  const attributes = attributesOf(item);
  return [
    {
      ...notificationKey(item.id),
      entity: 'notification',
      ...attributes,
      ...notificationByUserIndex(item.user_id, item.created_at, item.id),
      ...notificationByUserStateIndex(item.user_id, state, item.created_at, item.id),
      ...notificationByUserTypeStateIndex(item.user_id, item.type, state, item.created_at, item.id),
    },
    {
      ...notificationTypeCopyKey(item.id),
      entity: 'notification_type_copy',
      ...attributes,
      ...notificationByUserTypeIndex(item.user_id, item.type, item.created_at, item.id),
    },
  ];
}

/** The writes that store one notification with its type copy and count it. */
export function notificationCreationItems(item: NotificationItem): TransactItem[] {
  const table = tableName();
  const delta: StatsDelta = {};
  addDelta(delta, 'total', 1);
  addDelta(delta, `type:${item.type}`, 1);
  if (!item.is_read) {
    addDelta(delta, 'unread', 1);
    addDelta(delta, `unread:${item.type}`, 1);
  }
  const [notification, typeCopy] = storedNotificationItems(item);
  return [
    { Put: { TableName: table, Item: notification, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: table, Item: typeCopy } },
    statsUpdate(item.user_id, delta),
  ];
}

export async function insertNotification(item: NotificationItem): Promise<void> {
  await transactWrite(notificationCreationItems(item));
}

/** By id, strongly consistent: mark and delete decide on the state they read. */
export async function findNotificationById(notificationId: number): Promise<NotificationItem | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: notificationKey(notificationId), ConsistentRead: true }),
  );
  return result.Item ? (result.Item as NotificationItem) : undefined;
}

export async function getNotificationStats(userId: number): Promise<NotificationStats> {
  const result = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: notificationStatsKey(userId),
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  readMeter.add(result.ConsumedCapacity?.CapacityUnits);
  const raw = (result.Item ?? {}) as Record<string, unknown>;
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
}

export interface NotificationListQuery {
  readonly userId: number;
  readonly isRead?: boolean | undefined;
  readonly type?: NotificationType | undefined;
  readonly ascending: boolean;
  readonly page: number;
  readonly perPage: number;
  readonly cursor?: string | undefined;
}

/**
 * One page of a recipient's notifications; each filter combination has its own partition, so every list is a
 * key condition with no FilterExpression: none → G1 all; is_read → G2 state; type → G1 on the type copies;
 * type + is_read → G3.
 */
export async function queryNotificationPage(
  query: NotificationListQuery,
): Promise<PageResult<NotificationItem>> {
  const { index, partition } = listPartition(query);
  const result = await queryPage<NotificationItem>({
    index,
    keyCondition: `${index.toLowerCase()}pk = :pk`,
    values: { ':pk': partition },
    ascending: query.ascending,
    page: query.page,
    perPage: query.perPage,
    cursor: query.cursor,
  });
  readMeter.add(result.consumedReadUnits);
  return result;
}

function listPartition(query: NotificationListQuery): { index: IndexName; partition: string } {
  const anyTime = '';
  const { userId, type, isRead } = query;
  if (type !== undefined && isRead !== undefined) {
    const keys = notificationByUserTypeStateIndex(userId, type, notificationState(isRead), anyTime, 0);
    return { index: 'GSI3', partition: keys.gsi3pk };
  }
  if (type !== undefined) {
    return { index: 'GSI1', partition: notificationByUserTypeIndex(userId, type, anyTime, 0).gsi1pk };
  }
  if (isRead !== undefined) {
    const keys = notificationByUserStateIndex(userId, notificationState(isRead), anyTime, 0);
    return { index: 'GSI2', partition: keys.gsi2pk };
  }
  return { index: 'GSI1', partition: notificationByUserIndex(userId, anyTime, 0).gsi1pk };
}

/** The newest unread notifications of a recipient, at most `limit` (one Query on G2). */
export async function queryNewestUnread(userId: number, limit: number): Promise<NotificationItem[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': notificationByUserStateIndex(userId, 'UNREAD', '', 0).gsi2pk },
      ScanIndexForward: false,
      Limit: limit,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  readMeter.add(result.ConsumedCapacity?.CapacityUnits);
  return (result.Items ?? []) as NotificationItem[];
}

/** Walks a recipient's notifications (all, or only unread) by key condition, page by page, for the bulk operations. */
export async function* queryRecipientNotifications(
  userId: number,
  only: 'all' | 'unread',
): AsyncGenerator<NotificationItem[]> {
  const [index, partition] =
    only === 'unread'
      ? (['GSI2', notificationByUserStateIndex(userId, 'UNREAD', '', 0).gsi2pk] as const)
      : (['GSI1', notificationByUserIndex(userId, '', 0).gsi1pk] as const);
  let startKey: Record<string, unknown> | undefined;
  do {
    const result: QueryCommandOutput = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: `${index.toLowerCase()}pk = :pk`,
        ExpressionAttributeValues: { ':pk': partition },
        ProjectionExpression: 'id, user_id, #type, is_read, created_at',
        ExpressionAttributeNames: { '#type': 'type' },
        ExclusiveStartKey: startKey,
        Limit: 200,
      }),
    );
    const items = (result.Items ?? []) as NotificationItem[];
    if (items.length > 0) yield items;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}

/**
 * Flips unread notifications of one recipient to read in one transaction, each with the condition `is_read = false`,
 * and moves the unread counters by exactly the number flipped. Answers false when any condition failed (another
 * request marked or deleted one meanwhile): nothing was written, and the caller retries item by item.
 */
export async function markNotificationsRead(
  userId: number,
  items: readonly Pick<NotificationItem, 'id' | 'type' | 'created_at'>[],
  readAt: string,
): Promise<boolean> {
  if (items.length === 0) return true;
  const table = tableName();
  const delta: StatsDelta = {};
  const writes: TransactItem[] = [];
  for (const item of items) {
    addDelta(delta, 'unread', -1);
    addDelta(delta, `unread:${item.type}`, -1);
    writes.push(
      {
        Update: {
          TableName: table,
          Key: notificationKey(item.id),
          UpdateExpression: 'SET is_read = :true, read_at = :readAt, gsi2pk = :g2pk, gsi3pk = :g3pk',
          ConditionExpression: 'attribute_exists(pk) AND is_read = :false',
          ExpressionAttributeValues: {
            ':true': true,
            ':false': false,
            ':readAt': readAt,
            ':g2pk': notificationByUserStateIndex(userId, 'READ', '', 0).gsi2pk,
            ':g3pk': notificationByUserTypeStateIndex(userId, item.type, 'READ', '', 0).gsi3pk,
          },
        },
      },
      {
        Update: {
          TableName: table,
          Key: notificationTypeCopyKey(item.id),
          UpdateExpression: 'SET is_read = :true, read_at = :readAt',
          ExpressionAttributeValues: { ':true': true, ':readAt': readAt },
        },
      },
    );
  }
  writes.push(statsUpdate(userId, delta));
  return conditionalTransaction(writes);
}

/**
 * Deletes notifications of one recipient with their type copies in one transaction, each on the condition that
 * it still has the read state the caller saw, so the counters move by exactly what was deleted. Answers false when
 * any condition failed (nothing written).
 */
export async function deleteNotifications(
  userId: number,
  items: readonly Pick<NotificationItem, 'id' | 'type' | 'is_read'>[],
): Promise<boolean> {
  if (items.length === 0) return true;
  const table = tableName();
  const delta: StatsDelta = {};
  const writes: TransactItem[] = [];
  for (const item of items) {
    addDelta(delta, 'total', -1);
    addDelta(delta, `type:${item.type}`, -1);
    if (!item.is_read) {
      addDelta(delta, 'unread', -1);
      addDelta(delta, `unread:${item.type}`, -1);
    }
    writes.push(
      {
        Delete: {
          TableName: table,
          Key: notificationKey(item.id),
          ConditionExpression: 'attribute_exists(pk) AND is_read = :seen',
          ExpressionAttributeValues: { ':seen': item.is_read },
        },
      },
      { Delete: { TableName: table, Key: notificationTypeCopyKey(item.id) } },
    );
  }
  writes.push(statsUpdate(userId, delta));
  return conditionalTransaction(writes);
}

async function conditionalTransaction(writes: TransactItem[]): Promise<boolean> {
  try {
    await transactWrite(writes);
    return true;
  } catch (error) {
    if (failedConditionIndexes(error).length > 0) return false;
    throw error;
  }
}
