/**
 * Feed list cost at two sizes (`npm run bench -- feeds`): feeds filled to 1 000 and then to 100 000 (BatchWriteItem
 * of the items the write path builds, `storedPost` and `storedPostTopicLink`, with every aggregate set to what the
 * write path would have maintained, computed by the same `feedAggregates`), then for page 1 of GET /feeds with no
 * filter, with a `topics` filter and with a `space_id` filter:
 * - median latency through the local gateway (its own in-memory stack on free ports),
 * - DynamoDB read units per request, from ReturnConsumedCapacity, by calling the use case in this process.
 *
 * The caller is a plain member of one private space and not of a secret one, so the unfiltered timeline and the
 * topic list apply the visibility filter and skip the secret space's feeds (one in ten). Distribution (constant
 * across sizes): feed n is in the secret space when n % 10 = 1, the private space when n % 10 = 2, the global feed
 * when n % 10 = 3, else the public space; it carries topic A when n is even, also topic B when n % 4 = 0.
 * Acceptance: read units at 100 000 within 10 % of those at 1 000, for each filter.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import { readMeter } from '../../shared/db/read-meter.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import { feedAggregates } from '../../shared/domain/feeds/feed-aggregates.ts';
import { listFeeds } from '../../shared/domain/feeds/list-feeds.ts';
import {
  type PostItem,
  storedPost,
  storedPostListing,
  storedPostTopicLink,
} from '../../shared/domain/feeds/post-item.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { renderMarkdown } from '../../shared/domain/text/render-markdown.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { medianLatencyOf } from './support/measure.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { putItemsInBatches } from '../../shared/db/batch-write.ts';
import { startBenchStack } from './support/bench-stack.ts';

const SIZES = [1_000, 100_000];
const SAMPLES = 30;
const medianLatency = medianLatencyOf({ samples: SAMPLES, warmup: 5 });
const run = Date.now().toString(36);

const stack = await startBenchStack(run);

try {
  const viewer = await createUser({ login: `viewer_${run}`, email: `viewer_${run}@example.com` });
  const author = await createUser({ login: `author_${run}`, email: `author_${run}@example.com` });
  const ids = await runImport({
    spaces: [
      { ref: 'public', title: 'Public', slug: `public-${run}`, members: [{ user: author.username }] },
      {
        ref: 'private',
        title: 'Private',
        slug: `private-${run}`,
        privacy: 'private',
        members: [{ user: author.username }, { user: viewer.username }],
      },
      {
        ref: 'secret',
        title: 'Secret',
        slug: `secret-${run}`,
        privacy: 'secret',
        members: [{ user: author.username }],
      },
    ],
    topics: [
      { ref: 'a', title: 'Topic A', slug: `a-${run}` },
      { ref: 'b', title: 'Topic B', slug: `b-${run}` },
    ],
  });
  const spaces = {
    public: ids.spaces.public,
    private: ids.spaces.private,
    secret: ids.spaces.secret,
  } as Record<string, number>;
  const topics = { a: ids.topics.a as number, b: ids.topics.b as number };
  const caller: Caller = {
    id: viewer.id,
    username: viewer.username,
    hostRole: 'member',
    communityRoles: [],
    status: 'active',
  };
  const authorization = `Basic ${Buffer.from(`${viewer.username}:${viewer.app_password}`).toString('base64')}`;
  const queries = {
    'no filter': {},
    topics: { topics: String(topics.a) },
    space_id: { space_id: String(spaces.public) },
  } as const;

  const results: Array<{ size: number; filter: string; ms: number; rcu: number; total: number }> = [];
  let filled = 0;
  for (const size of SIZES) {
    const started = Date.now();
    await fill(author.id, spaces, topics, filled, size);
    filled = size;
    process.stdout.write(`filled ${size} feeds in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    for (const [filter, query] of Object.entries(queries)) {
      const search = new URLSearchParams(query).toString();
      const input = {
        page: 1,
        per_page: 20,
        status: 'published' as const,
        ...('topics' in query ? { topics: [topics.a] } : {}),
        ...('space_id' in query ? { space_id: spaces.public } : {}),
      };
      const measured = await readUnits(() => listFeeds(caller, input));
      results.push({
        size,
        filter,
        ms: await medianLatency(`${stack.apiUrl}/feeds${search ? `?${search}` : ''}`, authorization),
        rcu: measured.units,
        total: measured.total,
      });
    }
  }

  console.table(
    results.map((row) => ({
      feeds: row.size,
      filter: row.filter,
      'page 1 median ms': row.ms.toFixed(1),
      'page 1 RCU': row.rcu,
      total: row.total,
    })),
  );
  let pass = true;
  for (const filter of Object.keys(queries)) {
    const [small, large] = results.filter((row) => row.filter === filter) as [
      (typeof results)[number],
      (typeof results)[number],
    ];
    const ratio = large.rcu / small.rcu;
    pass &&= Math.abs(ratio - 1) <= 0.1;
    process.stdout.write(
      `${filter}: RCU ratio 100k/1k ${ratio.toFixed(3)}; latency ratio ${(large.ms / small.ms).toFixed(2)}\n`,
    );
  }
  process.stdout.write(
    pass ? 'PASS: read units within 10 %\n' : 'FAIL: read units differ by more than 10 %\n',
  );
  process.exitCode = pass ? 0 : 1;
} finally {
  await stack.stop();
}

/** Feeds [from, to) by the author, then every aggregate set to the value the write path maintains for [0, to). */
async function fill(
  authorId: number,
  spaces: Record<string, number>,
  topics: { a: number; b: number },
  from: number,
  to: number,
): Promise<void> {
  const base = Date.parse('2024-01-01T00:00:00Z');
  const message =
    'A post of ordinary length, so that each item is about as large as a real feed row. '.repeat(3);
  const rendered = renderMarkdown(message);
  const feed = (n: number): PostItem => {
    const where = n % 10 === 1 ? 'secret' : n % 10 === 2 ? 'private' : n % 10 === 3 ? 'global' : 'public';
    const createdAt = new Date(base + n * 1000).toISOString();
    return {
      id: 1_000_000 + n,
      user_id: authorId,
      space_id: where === 'global' ? null : (spaces[where] as number),
      space_visibility: where === 'secret' || where === 'private' ? 'members' : 'public',
      title: `Feed ${n}`,
      slug: `feed-${n}`,
      message,
      message_rendered: rendered,
      type: 'text',
      status: 'published',
      topic_ids: n % 4 === 0 ? [topics.a, topics.b] : n % 2 === 0 ? [topics.a] : [],
      comments_count: 0,
      reactions_count: 0,
      media: [],
      created_at: createdAt,
      updated_at: createdAt,
    };
  };

  const writes: Array<Record<string, unknown>> = [];
  for (let n = from; n < to; n++) {
    const post = feed(n);
    writes.push(
      storedPost(post),
      storedPostListing(post),
      ...post.topic_ids.map((topicId) => storedPostTopicLink(post, topicId)),
    );
  }
  await batchWrite(writes);

  // Aggregates over all feeds so far, exactly as the write path would have moved them.
  const counters = new Map<string, { key: { pk: string; sk: string }; values: Record<string, unknown> }>();
  for (let n = 0; n < to; n++) {
    const post = feed(n);
    for (const aggregate of feedAggregates(post)) {
      const id = `${aggregate.key.pk}\u0000${aggregate.key.sk}`;
      const entry = counters.get(id) ?? { key: aggregate.key, values: { ...aggregate.identity } };
      counters.set(id, entry);
      for (const [name, amount] of Object.entries(aggregate.deltas)) {
        entry.values[name] = ((entry.values[name] as number | undefined) ?? 0) + amount;
      }
    }
  }
  // Counters the import wrote (members_count) stay; the feed counters are set to their exact values.
  for (const { key, values } of counters.values()) {
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...(await existing(key)), ...values } }),
    );
  }
}

async function existing(key: { pk: string; sk: string }): Promise<Record<string, unknown>> {
  const found = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return found.Item ?? key;
}

/** Filler items straight into the table (4 BatchWriteItem calls in flight): set-up, not what is measured. */
function batchWrite(items: Array<Record<string, unknown>>): Promise<void> {
  return putItemsInBatches(items as Array<Record<string, unknown> & ItemKey>, { parallel: 4 });
}

async function readUnits(
  call: () => Promise<{ feeds: { total: number } }>,
): Promise<{ units: number; total: number }> {
  readMeter.reset();
  const result = await call();
  return { units: readMeter.total(), total: result.feeds.total };
}
