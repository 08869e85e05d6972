import { writeMeter } from '../../shared/db/read-meter.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { fillNotifications } from './support/notification-fill.ts';
import { startBenchStack } from './support/bench-stack.ts';

const SIZES = [1_000, 100_000];
const run = Date.now().toString(36);

const stack = await startBenchStack(run);

type Row = Record<string, string | number | boolean>;

async function call(method: string, path: string, authorization: string) {
  writeMeter.reset();
  const started = performance.now();
  const response = await fetch(`${stack.apiUrl}${path}`, { method, headers: { authorization } });
  const body = (await response.json()) as { data?: Record<string, number> } & Record<string, unknown>;
  const ms = performance.now() - started;
  // Read at once: the tidy worker's own writes start only after it has received its message.
  const wcu = writeMeter.total();
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}`);
  return { ms, wcu, body };
}

async function get(path: string, authorization: string) {
  const response = await fetch(`${stack.apiUrl}${path}`, { headers: { authorization } });
  return (await response.json()) as Record<string, { total?: number; data?: unknown[] }> & {
    unread_count?: number;
  };
}

try {
  const actor = await createUser({ login: `actor_${run}`, email: `actor_${run}@example.com` });
  const rows: Row[] = [];
  let pass = true;
  for (const size of SIZES) {
    const user = await createUser({ login: `bulk_${size}_${run}`, email: `bulk_${size}_${run}@example.com` });
    const authorization = `Basic ${Buffer.from(`${user.username}:${user.app_password}`).toString('base64')}`;
    const started = Date.now();
    await fillNotifications({ userId: user.id, actorId: actor.id, from: 0, to: size, readEvery: 0 });
    process.stdout.write(
      `filled ${size} unread notifications in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );

    const mark = await call('POST', '/notifications/mark-all-read', authorization);
    const unread = await get('/notifications/unread', authorization);
    const readList = await get('/notifications?is_read=true&per_page=1', authorization);
    const markExact =
      mark.body.data?.marked_count === size &&
      unread.unread_count === 0 &&
      readList.notifications?.total === size;

    const remove = await call('DELETE', '/notifications/delete-all', authorization);
    const all = await get('/notifications?per_page=1', authorization);
    const deleteExact =
      remove.body.data?.deleted_count === size &&
      all.notifications?.total === 0 &&
      all.notifications.data?.length === 0;

    rows.push({
      unread: size,
      'mark-all ms': mark.ms.toFixed(1),
      'mark-all WCU': mark.wcu,
      'mark-all exact': markExact,
      'delete-all ms': remove.ms.toFixed(1),
      'delete-all WCU': remove.wcu,
      'delete-all exact': deleteExact,
    });
    if (size === SIZES[SIZES.length - 1])
      pass = mark.ms < 1000 && remove.ms < 1000 && markExact && deleteExact;
  }
  console.table(rows);
  process.stdout.write(pass ? 'PASS: both answer in under 1 s at 100 000, counts exact\n' : 'FAIL\n');
  process.exitCode = pass ? 0 : 1;
} finally {
  await stack.stop();
}
