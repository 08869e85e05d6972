/**
 * BuddyPress migration throughput (`npm run bench -- migration [--groups N --members N --activities N]`, default
 * the acceptance size 200 / 5 000 / 50 000): a generated source in a MariaDB server of its own, a full run
 * through the local stack (start → `migrations` queue → the poller's workers, until the status says completed),
 * and bare BatchWriteItem loops into the same DynamoDB Local writing the rows the run migrates:
 *
 * - **target items**: what the run writes for each row it migrates, built by the same item builders the migration
 *   uses, in the proportions the generator predicts, with their index attributes: a feed is its post item and its
 *   listing entry (the one carrying the feed's index keys since issue 20), a comment, membership or space one item.
 *   The cost of only writing what the run migrates. The acceptance line is read against this loop.
 * - **same items, one per row**: the same, but a feed as its post item alone. Until issue 20 a feed was one item
 *   carrying its index keys; its post item now carries none (its listing entry does), so this loop leaves out a
 *   feed's listing entry with its index entries, about a quarter of the targets' items. Printed too.
 * - **plain items**: index-free items of the same average size (what the first version of this benchmark compared
 *   against), printed too.
 *
 * Each loop runs once before the run (fresh emulator, small table) and once after (warm, large table); a ratio
 * is taken against the faster of the two, the more demanding baseline. A loop is one BatchWriteItem of 25 new
 * items at a time, each awaited before the next (retrying what comes back unprocessed). Prints the rates, the
 * ratios, the items the run wrote and its DynamoDB calls per operation, and whether every count in `results` equals
 * what the generator predicts.
 */
import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { completedMigration } from '../../shared/domain/migrations/migration-mapper.ts';
import { findRun } from '../../shared/domain/migrations/run-repository.ts';
import { startMigration } from '../../shared/domain/migrations/start-migration.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { storedComment } from '../../shared/domain/feeds/comment-item.ts';
import { type PostItem, storedPost, storedPostItems } from '../../shared/domain/feeds/post-item.ts';
import { DEFAULT_SPACE_SETTINGS } from '../../shared/domain/spaces/index.ts';
import { storedMembership, storedSpace } from '../../shared/domain/spaces/space-item.ts';
import { renderMarkdown } from '../../shared/domain/text/index.ts';
import type { Fixture } from '../support/buddypress/generate.ts';
import { loadBuddypressFixture } from '../support/buddypress/load.ts';
import { commandLine } from '../support/command-line.ts';
import { startTestMariaDb } from '../support/private-mariadb.ts';
import { generatePepper, startLocalStack } from '../../infra/local/stack.ts';
import { profileDynamoDbCalls } from './support/call-profile.ts';
import { meterItemWrites } from './support/item-write-meter.ts';

const { values } = commandLine({
  args: process.argv.slice(3),
  usage: `usage: npm run bench -- migration [--groups N] [--members N] [--activities N] [--server URL]
  --groups N, --members N, --activities N   the generated source (default 200 / 5000 / 50000)
  --server URL   an existing MariaDB server (mysql://user:password@host:port) instead of one of its own
example: npm run bench -- migration --groups 20 --members 500 --activities 5000`,
  options: {
    groups: { type: 'string', default: '200' },
    members: { type: 'string', default: '5000' },
    activities: { type: 'string', default: '50000' },
    server: { type: 'string' },
  },
});
// A MariaDB server of its own (private-mariadb.ts; its buffer pool MariaDB's default size), unless given one.
const mariadb = values.server
  ? { url: values.server.replace(/\/+$/, ''), stop: async () => {} }
  : await startTestMariaDb({ bufferPoolMb: 128 });
const size = {
  groups: Number(values.groups),
  members: Number(values.members),
  activities: Number(values.activities),
};
const run = Date.now().toString(36);
const database = `community_bp_bench_${run}`;
const say = (line: string) => process.stdout.write(`${line}\n`);
/** Ids far above anything the run takes, so the loops never overwrite its items. */
const BENCH_ID = 900_000_000;
const at = '2024-03-01T12:00:00.000Z';

say(`source: generating ${JSON.stringify(size)} into ${database}`);
const fixture = await loadBuddypressFixture({ database, prefix: 'wp_', serverUrl: mariadb.url, ...size });
say(`source rows: ${JSON.stringify(fixture.rowCounts)}`);

process.env.LOG_LEVEL = 'silent';
const stack = await startLocalStack({
  port: 0,
  names: { table: `bench-${run}`, bucket: `bench-media-${run}`, queuePrefix: `bench-${run}` },
  pepper: generatePepper(),
  buddypressUrl: `${mariadb.url}/${database}`,
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
  const rows = Object.values(fixture.expected).reduce((sum, item) => sum + item.migrated, 0);
  const targetsBefore = await bareLoop(rows, targetItems(fixture));
  const sameBefore = await bareLoop(rows, sameItems(fixture));
  const plainBefore = await bareLoop(rows, plainItems(averageBytes(fixture)));

  const meter = meterItemWrites();
  const profile = profileDynamoDbCalls();
  const started = performance.now();
  await startMigration(caller, 'buddypress', { items: ['groups', 'members', 'activities'], options });
  // When each step began, as the run item says (sampled every 200 ms): where a run's time goes.
  const steps: [string, number][] = [];
  let finished = await findRun('buddypress', true);
  while (finished?.status === 'in_progress') {
    if (steps.at(-1)?.[0] !== finished.phase) steps.push([finished.phase, performance.now()]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    finished = await findRun('buddypress', true);
  }
  const seconds = (performance.now() - started) / 1000;
  steps.push(['end', performance.now()]);
  profile.stop();
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
  say(
    `steps: ${steps
      .slice(0, -1)
      .map(([phase, at], i) => `${phase} ${((steps[i + 1]![1] - at) / 1000).toFixed(1)} s`)
      .join(', ')}`,
  );
  const runWrites = meter.items();
  say(
    `the run wrote ${runWrites} DynamoDB items (${(runWrites / migrated).toFixed(2)} per row: targets, users, guards, ledger, tallies, totals)`,
  );

  say(
    `the items it wrote by kind (its entity, else its partition key's prefix):\n  ${meter.kinds().join('\n  ')}`,
  );
  say(`the run's DynamoDB calls (summed time in flight, all workers):\n  ${profile.lines().join('\n  ')}`);

  const targetsAfter = await bareLoop(rows, targetItems(fixture));
  const sameAfter = await bareLoop(rows, sameItems(fixture));
  const plainAfter = await bareLoop(rows, plainItems(averageBytes(fixture)));
  const line = (name: string, before: Loop, after: Loop) => {
    const best = Math.min(before.seconds, after.seconds);
    say(
      `bare loop, ${name}: ${before.items} items in ${before.seconds.toFixed(1)} s before the run, ` +
        `${after.seconds.toFixed(1)} s after = ${(before.items / before.seconds).toFixed(0)} / ` +
        `${(after.items / after.seconds).toFixed(0)} items/s; ratio ${(best / seconds).toFixed(2)}`,
    );
  };
  line('target items (a feed: post item and listing entry)', targetsBefore, targetsAfter);
  line(`same items, one per row (${averageBytes(fixture)} bytes on average)`, sameBefore, sameAfter);
  line('plain items (no index attributes, same size)', plainBefore, plainAfter);
  say('target: ratio ≥ 0.8 against the target-items loop');
} finally {
  await stack.stop();
  const mysql = await import('mysql2/promise');
  const connection = await mysql.default.createConnection({ uri: mariadb.url });
  await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await connection.end();
  await mariadb.stop();
}

/** One row's items: what the migration writes for it (`targets`), or a feed as its post item alone. */
type RowItems = () => Record<string, unknown>[];

/** Feeds, comments, memberships and spaces as the migration builds them, interleaved in the predicted proportions. */
function rowItems(fixture: Fixture, feed: (n: number) => Record<string, unknown>[]): RowItems {
  const { groups, members, activities, comments } = fixture.expected;
  const mix: [number, (n: number) => Record<string, unknown>[]][] = [
    [groups.migrated, (n) => [benchSpace(n)]],
    [members.migrated, (n) => [benchMembership(n)]],
    [activities.migrated, feed],
    [comments.migrated, (n) => [benchComment(n)]],
  ];
  const total = mix.reduce((sum, [count]) => sum + count, 0);
  let n = 0;
  return () => {
    n += 1;
    let pick = (n * 7919) % total;
    for (const [count, build] of mix) {
      if (pick < count) return build(n);
      pick -= count;
    }
    return [benchComment(n)];
  };
}

/** Each row's target items: a feed's post item and listing entry. */
function targetItems(fixture: Fixture): RowItems {
  return rowItems(fixture, (n) => storedPostItems(benchFeed(n)));
}

/** One item per row: a feed's post item alone. */
function sameItems(fixture: Fixture): RowItems {
  return rowItems(fixture, (n) => [storedPost(benchFeed(n))]);
}

function benchFeed(n: number): PostItem {
  const message = `Update number ${n} from member ${n % 5000}`;
  return {
    id: BENCH_ID + n,
    user_id: 1 + (n % 5000),
    space_id: n % 5 < 2 ? 1 + (n % 200) : null,
    space_visibility: 'public',
    title: '',
    slug: `update-number-${n}`,
    message,
    message_rendered: renderMarkdown(message),
    type: 'text',
    status: 'published',
    topic_ids: [],
    comments_count: 1,
    reactions_count: 0,
    media: [],
    created_at: at,
    updated_at: at,
  };
}

function benchComment(n: number) {
  const message = `Reply ${n % 8} to ${n}`;
  return storedComment({
    id: BENCH_ID + n,
    post_id: BENCH_ID + n - (n % 8),
    parent_id: null,
    user_id: 1 + (n % 5000),
    space_id: null,
    space_visibility: 'public',
    course_id: null,
    message,
    message_rendered: renderMarkdown(message),
    status: 'published',
    reactions_count: 0,
    created_at: at,
    updated_at: at,
  });
}

function benchMembership(n: number) {
  return storedMembership({
    space_id: BENCH_ID + (n % 200),
    user_id: 1 + n,
    role: 'member',
    status: 'active',
    created_at: at,
  });
}

function benchSpace(n: number) {
  const description = `Description of group ${n}`;
  return storedSpace({
    id: BENCH_ID + n,
    title: `Group ${n}`,
    slug: `bench-group-${n}`,
    description,
    description_rendered: renderMarkdown(description),
    logo: '',
    cover_photo: '',
    created_by: 1,
    parent_id: null,
    privacy: 'public',
    serial: n,
    status: 'published',
    type: 'community',
    settings: { ...DEFAULT_SPACE_SETTINGS },
    created_at: at,
    updated_at: at,
  });
}

/** The average JSON size of the same-items loop's items. */
function averageBytes(fixture: Fixture): number {
  const next = sameItems(fixture);
  let bytes = 0;
  for (let i = 0; i < 2000; i++) bytes += JSON.stringify(next()[0]).length;
  return Math.round(bytes / 2000);
}

function plainItems(bytes: number): RowItems {
  const filler = 'x'.repeat(Math.max(0, bytes - 80));
  let n = 0;
  return () => {
    n += 1;
    return [{ pk: `BENCHPLAIN#${n}`, sk: 'BENCH', entity: 'bench', message: filler, created_at: at }];
  };
}

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

interface Loop {
  readonly items: number;
  readonly seconds: number;
}

/** Writes the items of `rows` rows from `next`, 25 per BatchWriteItem, one call at a time; items and seconds taken. */
async function bareLoop(rows: number, next: RowItems): Promise<Loop> {
  const started = performance.now();
  let items = 0;
  let pending: Record<string, unknown>[] = [];
  const send = async (batch: Record<string, unknown>[]) => {
    let requests: WriteRequest[] = batch.map((Item) => ({ PutRequest: { Item } }));
    items += batch.length;
    while (requests.length > 0) {
      const answer = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = answer.UnprocessedItems?.[tableName()] ?? [];
    }
  };
  for (let row = 0; row < rows; row++) {
    pending.push(...next());
    if (pending.length >= 25) {
      await send(pending.slice(0, 25));
      pending = pending.slice(25);
    }
  }
  if (pending.length > 0) await send(pending);
  return { items, seconds: (performance.now() - started) / 1000 };
}
