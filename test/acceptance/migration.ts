/**
 * The BuddyPress migration's acceptance at its own size (`npm run acceptance:migration [-- --groups N --members N
 * --activities N]`, default 200 / 5 000 / 50 000): what `npm test` checks on small data sets, checked again on
 * the data set the issue names, against a MariaDB server and a local stack of its own (the test
 * stack redelivers after 1 s, which a chunk of this size outlasts). Prints each check and its figures; exits 1 if
 * any check fails. Never part of `npm test` (about ten minutes on two cores).
 *
 * 1. Ten concurrent starts through the gateway: one 200, nine 409 `migration_in_progress`.
 * 2. The run through the stack's own queue and workers, polled through the status endpoint: `results` equal what
 *    the generator says the mapping rules give; the unmappable rows are in `errors`; aggregates exact.
 * 3. Visible through the API: every migrated space's feed total, and a sample of feeds with every comment, with
 *    their original dates.
 * 4. A second run with `skip_existing`: nothing migrated, every row skipped, no item added outside the
 *    migration's own bookkeeping.
 * 5. Two more data sets (ids shifted, so each run creates): one run with every SQS message delivered twice at
 *    once, one with a worker SIGKILLed mid-chunk and its chunk delivered again; both end with the exact counts
 *    and exact aggregates (test/support/migration-driver.ts delivers the messages).
 */
import { isDeepStrictEqual } from 'node:util';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import mysql from 'mysql2/promise';
import { db, tableName } from '../../shared/db/client.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { completedMigration } from '../../shared/domain/migrations/migration-mapper.ts';
import { findMigratedActivities, findMigratedSpaces } from '../support/migrated-targets.ts';
import { startMigration } from '../../shared/domain/migrations/start-migration.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { generatePepper, startLocalStack } from '../../infra/local/stack.ts';
import { loadBuddypressFixture } from '../support/buddypress/load.ts';
import { commandLine } from '../support/command-line.ts';
import { startTestMariaDb } from '../support/private-mariadb.ts';
import { aggregateMismatches } from '../support/migration-aggregates.ts';
import { drive, usePrivateMigrationQueue } from '../support/migration-driver.ts';
import { expectedResults } from '../support/migration-results.ts';

const { values } = commandLine({
  usage: `usage: npm run acceptance:migration [-- [--groups N] [--members N] [--activities N] [--sample N] [--server URL]]
  --groups N, --members N, --activities N   the generated source (default 200 / 5000 / 50000)
  --sample N     feeds read back through the API with every page of their comments (default 100)
  --server URL   an existing MariaDB server (mysql://user:password@host:port) instead of one of its own
example: npm run acceptance:migration -- --groups 20 --members 500 --activities 5000`,
  options: {
    groups: { type: 'string', default: '200' },
    members: { type: 'string', default: '5000' },
    activities: { type: 'string', default: '50000' },
    /** Feeds read through the API with all their comments. */
    sample: { type: 'string', default: '100' },
    server: { type: 'string' },
  },
});
const mariadb = values.server
  ? { url: values.server.replace(/\/+$/, ''), stop: async () => {} }
  : await startTestMariaDb({ bufferPoolMb: 128 });
const size = {
  groups: Number(values.groups),
  members: Number(values.members),
  activities: Number(values.activities),
};
const ITEMS = ['groups', 'members', 'activities'];
const OPTIONS = {
  migrate_avatars: true,
  migrate_cover_images: true,
  preserve_dates: true,
  skip_existing: true,
};
const run = Date.now().toString(36);
const database = `community_bp_acceptance_${run}`;
const say = (line: string) => process.stdout.write(`${line}\n`);
const failures: string[] = [];
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;

/** One acceptance line: passes when `problems` is empty, else prints them (the first ten) and counts a failure. */
function check(name: string, problems: readonly string[]): void {
  if (problems.length === 0) {
    say(`  ok    ${name}`);
    return;
  }
  failures.push(name);
  say(`  FAIL  ${name}`);
  for (const problem of problems.slice(0, 10)) say(`        ${problem}`);
  if (problems.length > 10) say(`        … and ${problems.length - 10} more`);
}
const differs = (what: string, got: unknown, want: unknown): string[] =>
  isDeepStrictEqual(got, want) ? [] : [`${what}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`];

const load = async (idBase: number) => {
  const t = performance.now();
  const fixture = await loadBuddypressFixture({
    database,
    prefix: 'wp_',
    serverUrl: mariadb.url,
    ...size,
    idBase,
  });
  say(`source (ids from ${idBase}): ${JSON.stringify(fixture.rowCounts)} in ${since(t)}`);
  say(`  the mapping rules give ${JSON.stringify(fixture.expected)}`);
  return fixture;
};

let fixture = await load(0);
process.env.LOG_LEVEL = 'silent';
const stack = await startLocalStack({
  port: 0,
  names: { table: `acceptance-${run}`, bucket: `acceptance-media-${run}`, queuePrefix: `acceptance-${run}` },
  pepper: generatePepper(),
  buddypressUrl: `${mariadb.url}/${database}`,
  buddypressTablePrefix: 'wp_',
});
Object.assign(process.env, stack.environment, { LOG_LEVEL: 'silent' });

const created = await createUser({
  login: `admin_${run}`,
  email: `admin_${run}@example.com`,
  hostRole: 'administrator',
});
const caller: Caller = {
  id: created.id,
  username: created.username,
  hostRole: 'administrator',
  communityRoles: [],
  status: 'active',
};
const authorization = `Basic ${Buffer.from(`${created.username}:${created.app_password}`).toString('base64')}`;

/** One request through the gateway as the administrator; `path` is under the API's base URL, or a link it gave. */
async function call<T = Record<string, unknown>>(method: string, path: string, body?: unknown) {
  const response = await fetch(path.startsWith('http') ? path : `${stack.apiUrl}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

type Status = { status: string; migration: Record<string, unknown> | null };

/** Polls `GET /migrations/buddypress/status` (one read per poll) until the run ends; prints progress now and then. */
async function followRun(): Promise<Status> {
  let printed = 0;
  for (;;) {
    const { status, body } = await call<Status>('GET', '/migrations/buddypress/status');
    if (status !== 200 || body.status !== 'in_progress') return body;
    if (Date.now() - printed > 15_000) {
      printed = Date.now();
      const progress = body.migration?.progress as Record<string, { percentage: number }> | undefined;
      const percentages = Object.entries(progress ?? {}).map(([item, p]) => `${item} ${p.percentage}%`);
      say(
        `    ${body.migration?.current_step}: ${percentages.join(', ')}; ` +
          `estimated time remaining ${body.migration?.estimated_time_remaining}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const rowsOf = (table: string) => {
  const { columns, rows } = fixture.tables[table]!;
  return rows.map((row) => Object.fromEntries(columns.map((name, i) => [name, row[i]])));
};
const apiDate = (sourceDate: unknown) => String(sourceDate).replace(' ', 'T');

/** Items per `entity` in the whole table: a parallel Scan, which only this check does (request paths never Scan). */
async function entityCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const SEGMENTS = 4;
  const scanSegment = async (Segment: number) => {
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new ScanCommand({
          TableName: tableName(),
          Segment,
          TotalSegments: SEGMENTS,
          ProjectionExpression: '#entity',
          ExpressionAttributeNames: { '#entity': 'entity' },
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const entity = String(item.entity ?? '(none)');
        counts[entity] = (counts[entity] ?? 0) + 1;
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  };
  await Promise.all(Array.from({ length: SEGMENTS }, (_, segment) => scanSegment(segment)));
  return counts;
}
const outsideBookkeeping = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).filter(([entity]) => !entity.startsWith('migration_')));

/** Every migrated space's feed total through `GET /feeds?space_id=`, against the source's group updates. */
async function spaceTotalProblems(feeds: Map<number, number>): Promise<string[]> {
  const spaces = await findMigratedSpaces(
    'buddypress',
    rowsOf('bp_groups').map((group) => Number(group.id)),
  );
  const expected = new Map<number, number>();
  for (const row of rowsOf('bp_activity')) {
    if (row.component !== 'groups' || !feeds.has(Number(row.id))) continue;
    expected.set(Number(row.item_id), (expected.get(Number(row.item_id)) ?? 0) + 1);
  }
  const problems = differs('migrated spaces', spaces.size, fixture.expected.groups.migrated);
  for (const [groupId, spaceId] of spaces) {
    const { status, body } = await call<{ feeds: { total: number } }>(
      'GET',
      `/feeds?space_id=${spaceId}&per_page=1`,
    );
    problems.push(
      ...differs(`group ${groupId} → space ${spaceId}: status`, status, 200),
      ...differs(
        `group ${groupId} → space ${spaceId}: feeds total`,
        body.feeds?.total,
        expected.get(groupId) ?? 0,
      ),
    );
  }
  return problems;
}

/** A sample of migrated feeds through `GET /feeds/{id}` and every page of their comments, dates as in the source. */
async function sampleProblems(feeds: Map<number, number>, comments: Map<number, number>): Promise<string[]> {
  const dates = new Map(rowsOf('bp_activity').map((row) => [Number(row.id), row.date_recorded]));
  const sourceOfComment = new Map([...comments].map(([source, target]) => [target, source]));
  const all = [...feeds];
  const step = Math.max(1, Math.floor(all.length / Number(values.sample)));
  const problems: string[] = [];
  let seenComments = 0;
  for (let i = 0; i < all.length; i += step) {
    const [sourceId, feedId] = all[i]!;
    const feed = await call<{ feed: { created_at: string; comments_count: number } }>(
      'GET',
      `/feeds/${feedId}`,
    );
    problems.push(
      ...differs(`feed ${feedId}: status`, feed.status, 200),
      ...differs(`feed ${feedId}: created_at`, feed.body.feed?.created_at, apiDate(dates.get(sourceId))),
    );
    let listed = 0;
    let next: string | null = `/feeds/${feedId}/comments?per_page=100`;
    while (next) {
      const page: {
        body: { comments: { data: { id: number; created_at: string }[]; next_page_url: string | null } };
      } = await call('GET', next);
      for (const comment of page.body.comments.data) {
        const source = sourceOfComment.get(comment.id);
        if (source === undefined)
          problems.push(`feed ${feedId}: comment ${comment.id} is not a migrated one`);
        else
          problems.push(
            ...differs(`comment ${comment.id}: created_at`, comment.created_at, apiDate(dates.get(source))),
          );
      }
      listed += page.body.comments.data.length;
      next = page.body.comments.next_page_url;
    }
    seenComments += listed;
    problems.push(...differs(`feed ${feedId}: comments listed`, listed, feed.body.feed?.comments_count));
  }
  say(`    read ${Math.ceil(all.length / step)} feeds and their ${seenComments} comments through the API`);
  return problems;
}

try {
  say('\n1. ten concurrent starts through the gateway');
  const starts = await Promise.all(
    Array.from({ length: 10 }, () =>
      call<{ code?: string }>('POST', '/migrations/buddypress/start', { items: ITEMS, options: OPTIONS }),
    ),
  );
  const t0 = performance.now();
  check('one starts, nine are 409 migration_in_progress', [
    ...differs('200s', starts.filter((s) => s.status === 200).length, 1),
    ...differs(
      '409 migration_in_progress',
      starts.filter((s) => s.status === 409 && s.body.code === 'migration_in_progress').length,
      9,
    ),
  ]);

  say('\n2. the run, through the stack’s queue and workers');
  const first = await followRun();
  const rows = fixture.expected;
  const migratedRows = Object.values(rows).reduce((sum, item) => sum + item.migrated, 0);
  say(
    `    ended ${first.status} in ${since(t0)}: ${migratedRows} rows, duration ${first.migration?.duration}`,
  );
  const errors = (first.migration?.errors ?? []) as { item: string; id: string }[];
  const failedIds = (item: string) =>
    errors
      .filter((e) => e.item === item)
      .map((e) => Number(e.id))
      .sort((a, b) => a - b);
  check('completed', differs('status', first.status, 'completed'));
  check(
    'every count in results equals the mapping rules',
    differs('results', first.migration?.results, expectedResults(fixture)),
  );
  check('the unmappable rows are reported in errors', [
    ...differs('activities', failedIds('activities'), fixture.unmappable.activities),
    ...differs('comments', failedIds('comments'), fixture.unmappable.comments),
  ]);
  check('every aggregate moved exactly once', await aggregateMismatches(fixture));

  say('\n3. visible through the API with their original dates');
  const { feeds, comments } = await findMigratedActivities(
    'buddypress',
    rowsOf('bp_activity').map((row) => Number(row.id)),
  );
  check('every migrated space lists its migrated feeds', await spaceTotalProblems(feeds));
  check(
    'sampled feeds and all their comments, dates as in the source',
    await sampleProblems(feeds, comments),
  );

  say('\n4. a second run with skip_existing');
  let t1 = performance.now();
  const before = await entityCounts();
  say(`    counted the table's items by entity in ${since(t1)}`);
  t1 = performance.now();
  const again = await call('POST', '/migrations/buddypress/start', {
    items: ITEMS,
    options: { skip_existing: true },
  });
  const second = await followRun();
  say(`    ended ${second.status} in ${since(t1)}`);
  const after = await entityCounts();
  check('migrates nothing: every row skipped', [
    ...differs('start', again.status, 200),
    ...differs('results', second.migration?.results, expectedResults(fixture, true)),
  ]);
  check(
    'duplicates nothing: no item outside the migration’s bookkeeping added',
    differs('items per entity', outsideBookkeeping(after), outsideBookkeeping(before)),
  );
  say(
    `    ${Object.values(outsideBookkeeping(after)).reduce((a, b) => a + b, 0)} items outside the bookkeeping, before and after`,
  );

  say('\n5. at-least-once delivery: messages delivered by a driver');
  const queue = await usePrivateMigrationQueue({
    sqsEndpoint: stack.endpoints.sqs,
    queuePrefix: stack.names.queuePrefix,
  });
  fixture = await load(1_000_000);
  const t2 = performance.now();
  await startMigration(caller, 'buddypress', { items: ITEMS, options: OPTIONS });
  const twice = await drive(queue, { twice: true }, 1_800_000);
  say(`    every message delivered twice at once: ended ${twice.run?.status} in ${since(t2)}`);
  check('every message delivered twice: the exact counts', [
    ...differs('status', twice.run?.status, 'completed'),
    ...(twice.run ? differs('results', completedMigration(twice.run).results, expectedResults(fixture)) : []),
  ]);
  check(
    'every message delivered twice: every aggregate moved exactly once',
    await aggregateMismatches(fixture),
  );

  fixture = await load(2_000_000);
  const t3 = performance.now();
  const started = await startMigration(caller, 'buddypress', { items: ITEMS, options: OPTIONS });
  let kill = true;
  const killed = await drive(
    queue,
    {
      killFirst: (message) => {
        if (!kill || message.run_id !== started.migration.id) return false;
        if (message.kind !== 'chunk' || message.phase !== 'activities') return false;
        kill = false;
        return true;
      },
    },
    1_800_000,
  );
  say(
    `    a worker killed mid-chunk (signal ${killed.killed.join(', ')}): ended ${killed.run?.status} in ${since(t3)}`,
  );
  check('a worker killed mid-chunk: the exact counts', [
    ...differs('killed', killed.killed, [9]),
    ...differs('status', killed.run?.status, 'completed'),
    ...(killed.run
      ? differs('results', completedMigration(killed.run).results, expectedResults(fixture))
      : []),
  ]);
  check('a worker killed mid-chunk: every aggregate moved exactly once', await aggregateMismatches(fixture));
} finally {
  await stack.stop();
  const connection = await mysql.createConnection({ uri: mariadb.url });
  await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await connection.end();
  await mariadb.stop();
}

say(
  failures.length === 0 ? '\nall acceptance checks hold' : `\n${failures.length} acceptance check(s) failed`,
);
process.exit(failures.length === 0 ? 0 : 1);
