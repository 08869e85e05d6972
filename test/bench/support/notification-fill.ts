import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/db/client.ts';
import { notificationStatsKey } from '../../../shared/db/keys/notifications.ts';
import {
  type NotificationItem,
  notificationCounts,
  storedNotification,
  storedNotificationTypeCopy,
} from '../../../shared/domain/notifications/notification-item.ts';

/**
 * Fills notifications [from, to) of one recipient with BatchWriteItem, through the same item builders the write
 * path uses, then writes the stats item exactly as the write paths would have maintained it (counters and the
 * newest creation time). `readEvery`: every n-th notification is read (0: none).
 */
export async function fillNotifications(options: {
  userId: number;
  actorId: number;
  from: number;
  to: number;
  readEvery: number;
}): Promise<void> {
  const { userId, actorId, from, to, readEvery } = options;
  const base = Date.parse('2024-01-01T00:00:00Z');
  const itemAt = (n: number): NotificationItem => {
    const id = 1_000_000 + userId * 1_000_000 + n;
    const createdAt = new Date(base + n * 1000).toISOString();
    const isRead = readEvery > 0 && n % readEvery === 0;
    return {
      id,
      user_id: userId,
      type: n % 3 === 0 ? 'new_comment' : 'new_reaction',
      title: 'Someone commented on your post',
      message: 'A reply of ordinary length so that each item is about as large as a real notification row.',
      action_url: `/feeds/${id}`,
      is_read: isRead,
      actor_id: actorId,
      object_id: id,
      object_type: 'feed',
      created_at: createdAt,
      read_at: isRead ? createdAt : null,
    };
  };
  const writes: Record<string, unknown>[] = [];
  for (let n = from; n < to; n++) {
    const item = itemAt(n);
    writes.push(storedNotification(item), storedNotificationTypeCopy(item));
  }
  const chunks: Record<string, unknown>[][] = [];
  for (let start = 0; start < writes.length; start += 25) chunks.push(writes.slice(start, start + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++] as Record<string, unknown>[];
        let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
        }
      }
    }),
  );
  const stats: Record<string, number> = {};
  for (let n = 0; n < to; n++) {
    for (const [name, amount] of Object.entries(notificationCounts(itemAt(n)))) {
      stats[name] = (stats[name] ?? 0) + amount;
    }
  }
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...notificationStatsKey(userId),
        entity: 'notification_stats',
        user_id: userId,
        ...stats,
        newest_created_at: itemAt(to - 1).created_at,
      },
    }),
  );
}
