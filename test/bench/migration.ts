/**
 * BuddyPress migration throughput (`npm run bench -- migration [--groups N --members N --activities N]`, default
 * the acceptance size 200 / 5 000 / 50 000): a generated source in MariaDB (127.0.0.1:3306, root), a full run
 * through the local stack (start → `migrations` queue → the poller's workers), then a bare BatchWriteItem loop
 * into the same DynamoDB Local, run twice: once writing one item per migrated row (the comparison), once
 * writing as many items as the run wrote (like for like: the run's puts, updates and transaction actions, counted
 * by a meter on the client), both with items of the run's average put size. Prints the rates, both ratios and
 * whether every count in `results` equals what the generator predicts.
 */
import { parseArgs } from 'node:util';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { generatePepper, startLocalStack } from '../../infra/local/stack.ts';
import { db, tableName } from '../../shared/db/client.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { completedMigration } from '../../shared/domain/migrations/migration-mapper.ts';
import { findRun } from '../../shared/domain/migrations/run-repository.ts';
import { startMigration } from '../../shared/domain/migrations/start-migration.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { loadBuddypressFixture } from '../support/buddypress/load.ts';
import { meterItemWrites } from './support/item-write-meter.ts';

const { values } = parseArgs({
  args: process.argv.slice(3),
  options: {
    groups: { type: 'string', default: '200' },
    members: { type: 'string', default: '5000' },
    activities: { type: 'string', default: '50000' },
  },
});
const size = {
  groups: Number(values.groups),
  members: Number(values.members),
  activities: Number(values.activities),
};
const run = Date.now().toString(36);
const database = `community_bp_bench_${run}`;
const say = (line: string) => process.stdout.write(`${line}\n`);

say(`source: generating ${JSON.stringify(size)} into ${database}`);
const fixture = await loadBuddypressFixture({ database, prefix: 'wp_', ...size });
say(`source rows: ${JSON.stringify(fixture.rowCounts)}`);

process.env.LOG_LEVEL = 'silent';
const stack = await startLocalStack({
  port: 0,
  names: { table: `bench-${run}`, bucket: `bench-media-${run}`, queuePrefix: `bench-${run}` },
  pepper: generatePepper(),
  buddypressUrl: `mysql://root@127.0.0.1:3306/${database}`,
  buddypressTablePrefix: 'wp_',
});
Object.assign(process.env, stack.environment, { LOG_LEVEL: 'silent' });

try {
  const admin = await createUser({
    login: `admin_${run}`,
    email: `admin_${run}@example.com`,
    hostRole: 'administrator',
  });
  const caller: Caller = {
    id: admin.id,
    username: admin.username,
    hostRole: 'administrator',
    communityRoles: [],
    status: 'active',
  };
  const options = {
    migrate_avatars: true,
    migrate_cover_images: true,
    preserve_dates: true,
    skip_existing: true,
  };
  const meter = meterItemWrites();
  const started = performance.now();
  await startMigration(caller, 'buddypress', { items: ['groups', 'members', 'activities'], options });
  let finished = await findRun('buddypress', true);
  while (finished?.status === 'in_progress') {
    await new Promise((resolve) => setTimeout(resolve, 500));
    finished = await findRun('buddypress', true);
  }
  const seconds = (performance.now() - started) / 1000;
  if (finished?.status !== 'completed')
    throw new Error(`the run ended ${finished?.status}: ${JSON.stringify(finished?.failure)}`);
  const { results } = completedMigration(finished);
  const migrated = Object.values(results).reduce((sum, item) => sum + item.migrated, 0);
  const exact = Object.entries(fixture.expected).every(([item, counts]) => {
    const got = results[item];
    return got?.total === counts.total && got.migrated === counts.migrated && got.failed === counts.failed;
  });
  say(`results: ${JSON.stringify(results)}`);
  say(`expected: ${JSON.stringify(fixture.expected)}  exact: ${exact}`);
  say(`migration: ${migrated} rows in ${seconds.toFixed(1)} s = ${(migrated / seconds).toFixed(0)} rows/s`);

  const runWrites = meter.items();
  const itemBytes = meter.averagePutBytes();
  say(
    `the run wrote ${runWrites} DynamoDB items (puts, updates, transaction actions) = ${(runWrites / seconds).toFixed(0)} items/s, average put ${itemBytes} bytes`,
  );

  // The baseline: one BatchWriteItem of 25 new items at a time, each awaited before the next (retrying what
  // comes back unprocessed), items of the run's average put size. Several in flight measured no faster on
  // DynamoDB Local (it serialises writes), so the sequential loop is the baseline's best, not a handicap.
  const rowsBare = await bareLoop('rows', migrated, itemBytes);
  say(
    `bare BatchWriteItem loop, ${migrated} items (one per migrated row): ${rowsBare.toFixed(1)} s = ${(migrated / rowsBare).toFixed(0)} items/s`,
  );
  const writesBare = await bareLoop('writes', runWrites, itemBytes);
  say(
    `bare BatchWriteItem loop, ${runWrites} items (as many as the run wrote): ${writesBare.toFixed(1)} s = ${(runWrites / writesBare).toFixed(0)} items/s`,
  );
  say(
    `ratio, migrated rows/s vs the loop writing one item per row: ${(rowsBare / seconds).toFixed(2)} (target ≥ 0.8)`,
  );
  say(
    `ratio, the run's item writes/s vs the loop writing as many items: ${(writesBare / seconds).toFixed(2)} (like for like)`,
  );
} finally {
  await stack.stop();
  const mysql = await import('mysql2/promise');
  const connection = await mysql.default.createConnection({ uri: 'mysql://root@127.0.0.1:3306' });
  await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await connection.end();
}

/** Writes `count` new items of about `bytes` bytes, 25 per BatchWriteItem, one call at a time; seconds taken. */
async function bareLoop(tag: string, count: number, bytes: number): Promise<number> {
  const filler = 'x'.repeat(Math.max(0, bytes - 80));
  const started = performance.now();
  for (let start = 0; start < count; start += 25) {
    let requests: Record<string, unknown>[] = Array.from({ length: Math.min(25, count - start) }, (_, i) => ({
      PutRequest: {
        Item: {
          pk: `BENCH#${tag}#${start + i}`,
          sk: 'BENCH',
          entity: 'bench',
          message: filler,
          created_at: new Date().toISOString(),
        },
      },
    }));
    while (requests.length > 0) {
      const answer = await db().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: requests as never } }),
      );
      requests = (answer.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return (performance.now() - started) / 1000;
}
