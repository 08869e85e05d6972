import type { Caller } from '../../shared/domain/auth/caller.ts';
import { listNotifications } from '../../shared/domain/notifications/list-notifications.ts';
import { listUnreadNotifications } from '../../shared/domain/notifications/list-unread-notifications.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { fillNotifications } from './support/notification-fill.ts';
import { medianLatencyOf, readUnits } from './support/measure.ts';
import { startBenchStack } from './support/bench-stack.ts';

const SIZES = [1_000, 100_000];
const SAMPLES = 30;
const medianLatency = medianLatencyOf({ samples: SAMPLES, warmup: 5 });
const run = Date.now().toString(36);

const stack = await startBenchStack(run);

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
