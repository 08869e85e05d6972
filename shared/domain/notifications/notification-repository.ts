import {
  notificationKey,
  notificationStatsKey,
  notificationTypeCopyKey,
  recipientNotifications,
  recipientNotificationsInState,
  recipientNotificationsOfType,
  recipientNotificationsOfTypeInState,
} from '../../db/keys/notifications.ts';
import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import type { Partition } from '../../db/partition.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { getItem, queryAll, queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  putAction,
  type TransactAction,
  transactWrite,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
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
 * unread counts are one GetItem whatever the number of notifications, and never go negative.
 */

/** The writes that store one notification with its type copy and count it (the import reuses them). */
export function notificationCreationActions(item: NotificationItem): TransactAction[] {
  return [
    putAction(storedNotification(item), { ifAbsent: true }),
    putAction(storedNotificationTypeCopy(item)),
    counterUpdate(notificationStatsKey(item.user_id), notificationCounts(item)),
  ];
}

export async function insertNotification(item: NotificationItem): Promise<void> {
  await transactWrite(notificationCreationActions(item));
}

/** By id, strongly consistent: mark and delete decide on the state they read. */
export function findNotificationById(notificationId: number): Promise<NotificationItem | undefined> {
  return getItem(notificationKey(notificationId), NotificationItemSchema, { consistent: true });
}

export async function getNotificationStats(userId: number): Promise<NotificationStats> {
  return (
    (await getItem(notificationStatsKey(userId), NotificationStatsItemSchema)) ?? EMPTY_NOTIFICATION_STATS
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
  /** Known from the stats item: a page past it reads nothing. */
  readonly total?: number | undefined;
}

/**
 * One page of a recipient's notifications. Each filter combination has its own partition, so every list is a key
 * condition with no FilterExpression: none → all; is_read → by state; type → by type (type copies);
 * type + is_read → by type and state.
 */
export function queryNotificationPage(query: NotificationListQuery): Promise<PageResult<NotificationItem>> {
  return queryPage({
    partition: listPartition(query),
    schema: NotificationItemSchema,
    ascending: query.ascending,
    page: query.page,
    perPage: query.perPage,
    cursor: query.cursor,
    total: query.total,
  });
}

function listPartition({ userId, type, isRead }: NotificationListQuery): Partition {
  if (type !== undefined && isRead !== undefined) {
    return recipientNotificationsOfTypeInState(userId, type, isRead ? 'READ' : 'UNREAD');
  }
  if (type !== undefined) return recipientNotificationsOfType(userId, type);
  if (isRead !== undefined) return recipientNotificationsInState(userId, isRead ? 'READ' : 'UNREAD');
  return recipientNotifications(userId);
}

/** The newest unread notifications of a recipient, at most `limit` (one Query). */
export function queryNewestUnread(userId: number, limit: number): Promise<NotificationItem[]> {
  return queryItems(recipientNotificationsInState(userId, 'UNREAD'), NotificationItemSchema, {
    ascending: false,
    limit,
  });
}

/** Walks a recipient's notifications (all, or only unread), page by page, for the bulk operations. */
export function queryRecipientNotifications(
  userId: number,
  only: 'all' | 'unread',
): AsyncGenerator<NotificationItem[]> {
  const partition =
    only === 'unread' ? recipientNotificationsInState(userId, 'UNREAD') : recipientNotifications(userId);
  return queryAll(partition, NotificationItemSchema);
}

/**
 * Flips unread notifications of one recipient to read in one transaction, each with the condition `is_read = false`,
 * and moves the unread counters by exactly the number flipped. Answers false when any condition failed (another
 * request marked or deleted one meanwhile): nothing was written, and the caller retries item by item.
 */
export async function markNotificationsRead(
  userId: number,
  items: readonly Pick<NotificationItem, 'id' | 'type'>[],
  readAt: string,
): Promise<boolean> {
  if (items.length === 0) return true;
  const unread = new CounterDeltas();
  const actions: TransactAction[] = [];
  const byState = recipientNotificationsInState(userId, 'READ');
  for (const item of items) {
    unread.add('unread', -1).add(`unread:${item.type}`, -1);
    const byTypeAndState = recipientNotificationsOfTypeInState(userId, item.type, 'READ');
    actions.push(
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
    );
  }
  actions.push(counterUpdate(notificationStatsKey(userId), unread));
  return writeUnlessChanged(actions);
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
  const counts = new CounterDeltas();
  const actions: TransactAction[] = [];
  for (const item of items) {
    for (const [name, amount] of Object.entries(notificationCounts(item))) counts.add(name, -amount);
    actions.push(
      deleteAction(notificationKey(item.id), {
        ConditionExpression: 'attribute_exists(pk) AND is_read = :seen',
        ExpressionAttributeValues: { ':seen': item.is_read },
      }),
      deleteAction(notificationTypeCopyKey(item.id)),
    );
  }
  actions.push(counterUpdate(notificationStatsKey(userId), counts));
  return writeUnlessChanged(actions);
}

/**
 * Writes a batch whose last action moves the stats item. A failed condition on a notification means a concurrent
 * change (false: nothing written, the caller re-reads); a failed floor on the stats item would mean a counter
 * going negative, which the counted writes make impossible, so it is an error, never a retry.
 */
async function writeUnlessChanged(actions: TransactAction[]): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return true;
  if (outcome.failed.includes(actions.length - 1)) {
    throw new Error(
      'Notification counters disagree with the notifications (a decrement below zero was refused)',
    );
  }
  return false;
}
