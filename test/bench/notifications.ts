/**
 * Notifications cost at two sizes (`npm run bench -- notifications`): one user's notifications filled to 1 000 and
 * then to 100 000 (BatchWriteItem directly, with the stats item consistent with them), then for page 1 of
 * GET /notifications and for GET /notifications/unread:
 * - median latency through the local gateway (its own in-memory stack on free ports),
 * - DynamoDB read units per request, from ReturnConsumedCapacity, by calling the use cases in this process.
 * Acceptance: read units differ by at most 10 % between the two sizes.
 */
import { generatePepper, startLocalStack } from '../../infra/local/stack.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { listNotifications } from '../../shared/domain/notifications/list-notifications.ts';
import { listUnreadNotifications } from '../../shared/domain/notifications/list-unread-notifications.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { fillNotifications } from './support/notification-fill.ts';
import { medianLatencyOf, readUnits } from './support/measure.ts';

const SIZES = [1_000, 100_000];
const SAMPLES = 30;
const medianLatency = medianLatencyOf({ samples: SAMPLES, warmup: 5 });
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
    await fillNotifications({
      userId: recipient.id,
      actorId: actor.id,
      from: filled,
      to: size,
      readEvery: 10,
    });
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
