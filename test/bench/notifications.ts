/**
 * Notifications cost at two sizes (`npm run bench -- notifications`): one user's notifications filled to 1 000 and
 * then to 100 000 (BatchWriteItem directly, with the stats item consistent with them), then for page 1 of
 * GET /notifications and for GET /notifications/unread:
 * - median latency through the local gateway (its own in-memory stack on free ports),
 * - DynamoDB read units per request, from ReturnConsumedCapacity, by calling the use cases in this process.
 * Acceptance: read units differ by at most 10 % between the two sizes.
 */
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { generatePepper, startLocalStack } from '../../infra/local/stack.ts';
import { db, tableName } from '../../shared/db/client.ts';
import { notificationStatsKey } from '../../shared/db/keys/notifications.ts';
import { readMeter } from '../../shared/db/read-meter.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { listNotifications } from '../../shared/domain/notifications/list-notifications.ts';
import { listUnreadNotifications } from '../../shared/domain/notifications/list-unread-notifications.ts';
import {
  type NotificationItem,
  storedNotification,
  storedNotificationTypeCopy,
} from '../../shared/domain/notifications/notification-item.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';

const SIZES = [1_000, 100_000];
const SAMPLES = 30;
const run = Date.now().toString(36);

process.env.LOG_LEVEL = 'silent';
const stack = await startLocalStack({
  port: 0,
  names: { table: `bench-${run}`, bucket: `bench-media-${run}`, queuePrefix: `bench-${run}` },
  pepper: generatePepper(),
});
Object.assign(process.env, stack.environment, { LOG_LEVEL: 'silent' });

try {
  const recipient = await createUser({ login: `bench_${run}`, email: `bench_${run}@example.com` });
  const actor = await createUser({ login: `actor_${run}`, email: `actor_${run}@example.com` });
  const caller: Caller = {
    id: recipient.id,
    username: recipient.username,
    hostRole: 'member',
    communityRoles: [],
    status: 'active',
  };
  const authorization = `Basic ${Buffer.from(`${recipient.username}:${recipient.app_password}`).toString('base64')}`;

  const results: Array<{
    size: number;
    listMs: number;
    unreadMs: number;
    listRcu: number;
    unreadRcu: number;
  }> = [];
  let filled = 0;
  for (const size of SIZES) {
    const started = Date.now();
    await fill(recipient.id, actor.id, filled, size);
    filled = size;
    process.stdout.write(`filled ${size} notifications in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    results.push({
      size,
      listMs: await medianLatency(`${stack.apiUrl}/notifications`, authorization),
      unreadMs: await medianLatency(`${stack.apiUrl}/notifications/unread`, authorization),
      listRcu: await readUnits(() =>
        listNotifications(caller, { page: 1, per_page: 20, orderby: 'created_at', order: 'desc' }),
      ),
      unreadRcu: await readUnits(() => listUnreadNotifications(caller)),
    });
  }

  const [small, large] = results as [(typeof results)[number], (typeof results)[number]];
  const table = results.map((row) => ({
    notifications: row.size,
    'list p1 median ms': row.listMs.toFixed(1),
    'list p1 RCU': row.listRcu,
    'unread median ms': row.unreadMs.toFixed(1),
    'unread RCU': row.unreadRcu,
  }));
  console.table(table);
  const listRatio = large.listRcu / small.listRcu;
  const unreadRatio = large.unreadRcu / small.unreadRcu;
  process.stdout.write(
    `RCU ratio 100k/1k: list page 1 ${listRatio.toFixed(3)}, unread ${unreadRatio.toFixed(3)}; ` +
      `latency ratio: list ${(large.listMs / small.listMs).toFixed(2)}, unread ${(large.unreadMs / small.unreadMs).toFixed(2)}\n`,
  );
  const pass = Math.abs(listRatio - 1) <= 0.1 && Math.abs(unreadRatio - 1) <= 0.1;
  process.stdout.write(
    pass ? 'PASS: read units within 10 %\n' : 'FAIL: read units differ by more than 10 %\n',
  );
  process.exitCode = pass ? 0 : 1;
} finally {
  await stack.stop();
}

/** Notifications [from, to) of the recipient: every 10th read, the rest unread; then the stats item to match. */
async function fill(userId: number, actorId: number, from: number, to: number): Promise<void> {
  const base = Date.parse('2024-01-01T00:00:00Z');
  const writes: Array<Record<string, unknown>> = [];
  for (let n = from; n < to; n++) {
    const id = 1_000_000 + n;
    const createdAt = new Date(base + n * 1000).toISOString();
    const isRead = n % 10 === 0;
    const type = n % 3 === 0 ? 'new_comment' : 'new_reaction';
    const item: NotificationItem = {
      id,
      user_id: userId,
      type,
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
    writes.push(storedNotification(item), storedNotificationTypeCopy(item));
  }
  const chunks: Array<Array<Record<string, unknown>>> = [];
  for (let start = 0; start < writes.length; start += 25) chunks.push(writes.slice(start, start + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++] as Array<Record<string, unknown>>;
        let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
        }
      }
    }),
  );
  // The stats item exactly as the write paths would have maintained it.
  const stats: Record<string, number> = { total: 0, unread: 0 };
  for (let n = 0; n < to; n++) {
    const type = n % 3 === 0 ? 'new_comment' : 'new_reaction';
    const unread = n % 10 !== 0 ? 1 : 0;
    stats.total = (stats.total ?? 0) + 1;
    stats.unread = (stats.unread ?? 0) + unread;
    stats[`type:${type}`] = (stats[`type:${type}`] ?? 0) + 1;
    stats[`unread:${type}`] = (stats[`unread:${type}`] ?? 0) + unread;
  }
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...notificationStatsKey(userId), entity: 'notification_stats', ...stats },
    }),
  );
}

async function medianLatency(url: string, authorization: string): Promise<number> {
  const timings: number[] = [];
  for (let i = 0; i < SAMPLES + 5; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization } });
    await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    if (i >= 5) timings.push(performance.now() - started); // the first calls load modules and warm connections
  }
  timings.sort((a, b) => a - b);
  return timings[Math.floor(timings.length / 2)] as number;
}

async function readUnits(call: () => Promise<unknown>): Promise<number> {
  readMeter.reset();
  await call();
  return readMeter.total();
}
