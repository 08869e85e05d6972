/**
 * Profile read cost at two sizes (`npm run bench -- profiles`): two members, one with 10 published feeds and 10
 * published comments, one with 10 000 of each (BatchWriteItem of the items the write path builds, `storedPost` and
 * `storedComment`, with the member's stats item set to what the write path would have maintained, computed by the
 * same `feedAggregates` and `commentCounts`). For each member, through the local gateway (its own in-memory stack
 * on free ports) and by calling the use cases in this process:
 * - GET /profile/{username},
 * - page 1 of GET /profile/{username}/comments (`per_page=10`, so page 1 is full at both sizes),
 * - page 1 of GET /feeds?username= (`per_page=10`),
 * median latency and DynamoDB read units per request (ReturnConsumedCapacity). The caller is another plain member,
 * so the visibility filters apply. Acceptance: read units at 10 000 within 10 % of those at 10, for each request.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import { readMeter } from '../../shared/db/read-meter.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { storedComment } from '../../shared/domain/feeds/comment-item.ts';
import { type CommentItem, commentCounts } from '../../shared/domain/feeds/index.ts';
import { feedAggregates } from '../../shared/domain/feeds/feed-aggregates.ts';
import { listFeeds } from '../../shared/domain/feeds/list-feeds.ts';
import { type PostItem, storedPost, storedPostListing } from '../../shared/domain/feeds/post-item.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { getProfile } from '../../shared/domain/profiles/get-profile.ts';
import { listProfileComments } from '../../shared/domain/profiles/list-profile-comments.ts';
import { renderMarkdown } from '../../shared/domain/text/render-markdown.ts';
import { type CreatedUser, createUser } from '../../shared/domain/users/create-user.ts';
import { userStatsKey } from '../../shared/db/keys/users.ts';
import { medianLatencyOf } from './support/measure.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { putItemsInBatches } from '../../shared/db/batch-write.ts';
import { startBenchStack } from './support/bench-stack.ts';

const SIZES = [10, 10_000];
const SAMPLES = 30;
const medianLatency = medianLatencyOf({ samples: SAMPLES, warmup: 5 });
/** Page 1 holds the same number of items at both sizes (a smaller member could not fill a page of 20). */
const PAGE = 10;
const run = Date.now().toString(36);

const stack = await startBenchStack(run);

try {
  const viewer = await createUser({ login: `viewer_${run}`, email: `viewer_${run}@example.com` });
  const ids = await runImport({
    spaces: [{ ref: 'public', title: 'Public', slug: `public-${run}` }],
  });
  const spaceId = ids.spaces.public as number;
  const caller: Caller = {
    id: viewer.id,
    username: viewer.username,
    hostRole: 'member',
    communityRoles: [],
    status: 'active',
  };
  const authorization = `Basic ${Buffer.from(`${viewer.username}:${viewer.app_password}`).toString('base64')}`;

  // Both members are filled first, then every request is warmed at both sizes before anything is timed, so the
  // first size measured does not pay for module loading and JIT warm-up.
  const members: Array<{ size: number; member: CreatedUser }> = [];
  let offset = 0;
  for (const size of SIZES) {
    const member = await createUser({
      login: `member${size}_${run}`,
      email: `member${size}_${run}@example.com`,
    });
    const started = Date.now();
    await fill(member, spaceId, offset, size);
    offset += size;
    members.push({ size, member });
    process.stdout.write(
      `filled ${size} feeds and comments in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
  const requestsOf = (member: CreatedUser): Array<[string, string, () => Promise<unknown>]> => [
    ['GET /profile/{username}', `/profile/${member.username}`, () => getProfile(caller, member.username)],
    [
      'comments page 1',
      `/profile/${member.username}/comments?per_page=${PAGE}`,
      () => listProfileComments(caller, member.username, { page: 1, per_page: PAGE }),
    ],
    [
      'feeds?username= page 1',
      `/feeds?username=${member.username}&per_page=${PAGE}`,
      () => listFeeds(caller, { page: 1, per_page: PAGE, status: 'published', username: member.username }),
    ],
  ];
  for (const { member } of members) {
    for (const [, path] of requestsOf(member)) await medianLatency(`${stack.apiUrl}${path}`, authorization);
  }

  const results: Array<{ size: number; request: string; ms: number; rcu: number }> = [];
  for (const { size, member } of members) {
    for (const [request, path, call] of requestsOf(member)) {
      readMeter.reset();
      await call();
      const rcu = readMeter.total();
      results.push({ size, request, ms: await medianLatency(`${stack.apiUrl}${path}`, authorization), rcu });
    }
  }

  console.table(
    results.map((row) => ({
      items: row.size,
      request: row.request,
      'median ms': row.ms.toFixed(1),
      RCU: row.rcu,
    })),
  );
  let pass = true;
  for (const request of new Set(results.map((row) => row.request))) {
    const [small, large] = results.filter((row) => row.request === request) as [
      (typeof results)[number],
      (typeof results)[number],
    ];
    const ratio = large.rcu / small.rcu;
    pass &&= Math.abs(ratio - 1) <= 0.1;
    process.stdout.write(
      `${request}: RCU ratio 10k/10 ${ratio.toFixed(3)}; latency ratio ${(large.ms / small.ms).toFixed(2)}\n`,
    );
  }
  process.stdout.write(
    pass ? 'PASS: read units within 10 %\n' : 'FAIL: read units differ by more than 10 %\n',
  );
  process.exitCode = pass ? 0 : 1;
} finally {
  await stack.stop();
}

/**
 * `count` published feeds of the member in the public space, and `count` published comments of the member on the
 * first of them; then the member's stats item as the write path would have left it. Ids start at `offset` so the
 * two members' items never share ids.
 */
async function fill(member: CreatedUser, spaceId: number, offset: number, count: number): Promise<void> {
  const base = Date.parse('2024-01-01T00:00:00Z');
  const message = 'A post of ordinary length, so that each item is about as large as a real row. '.repeat(3);
  const rendered = renderMarkdown(message);
  const stats: Record<string, number> = {};
  const add = (deltas: Readonly<Record<string, number>>) => {
    for (const [name, amount] of Object.entries(deltas)) stats[name] = (stats[name] ?? 0) + amount;
  };
  const writes: Array<Record<string, unknown>> = [];
  const firstPost = 1_000_000 + offset;
  for (let n = 0; n < count; n++) {
    const createdAt = new Date(base + n * 1000).toISOString();
    const post: PostItem = {
      id: firstPost + n,
      user_id: member.id,
      space_id: spaceId,
      space_visibility: 'public',
      title: `Feed ${n}`,
      slug: `feed-${n}`,
      message,
      message_rendered: rendered,
      type: 'text',
      status: 'published',
      topic_ids: [],
      comments_count: n === 0 ? count : 0,
      reactions_count: 0,
      media: [],
      created_at: createdAt,
      updated_at: createdAt,
    };
    const comment: CommentItem = {
      id: firstPost + n,
      post_id: firstPost,
      parent_id: null,
      user_id: member.id,
      space_id: spaceId,
      space_visibility: 'public',
      course_id: null,
      message,
      message_rendered: rendered,
      status: 'published',
      reactions_count: 0,
      created_at: createdAt,
      updated_at: createdAt,
    };
    writes.push(storedPost(post), storedPostListing(post), storedComment(comment));
    for (const aggregate of feedAggregates(post)) if (aggregate.kind === 'user') add(aggregate.deltas);
    add(commentCounts(comment));
  }
  await batchWrite(writes);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...userStatsKey(member.id), entity: 'user_stats', user_id: member.id, ...stats },
    }),
  );
}

/** Filler items straight into the table (4 BatchWriteItem calls in flight): set-up, not what is measured. */
function batchWrite(items: Array<Record<string, unknown>>): Promise<void> {
  return putItemsInBatches(items as Array<Record<string, unknown> & ItemKey>, { parallel: 4 });
}
