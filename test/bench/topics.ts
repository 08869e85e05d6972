/**
 * Topics cost at two sizes (`npm run bench -- topics [--sizes 1000,10000] [--feeds 1000,10000]`): the table filled
 * with 1 000 and then 10 000 topics (BatchWriteItem directly, with their search entries and the stats item
 * consistent with them), then, for GET /admin/topics page 1 without a filter, with `status`, with `parent_id`, and
 * with `search` (a term every title contains, a term of one title, a term of one title in a thousand, a two-letter term):
 * - median latency through the local gateway (its own in-memory stack on free ports),
 * - DynamoDB read units per request, from ReturnConsumedCapacity, by calling the use case in this process.
 * Then DELETE of a topic carried by 1 000 and by 10 000 feeds: the use case's answer time, and the time until the
 * `topics` worker (the stack's poller) has detached every link.
 *
 * Expected: the key-served lists and a search whose matches stay the same cost the same at both sizes (the
 * trigram index, ACCESS_PATTERNS.md "Topics"); a term every title contains grows with its matches (the exact
 * total counts them); a two-character term reads the list. The delete answers in the same time for any feeds.
 */
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import { topicPosts, topicUnlistedPosts } from '../../shared/db/keys/feeds.ts';
import { topicStatsKey } from '../../shared/db/keys/topics.ts';
import { queryItems } from '../../shared/db/reads.ts';
import type { Caller } from '../../shared/domain/auth/caller.ts';
import {
  type PostItem,
  storedPost,
  storedPostListing,
  storedPostTopicLink,
} from '../../shared/domain/feeds/post-item.ts';
import { deleteTopic } from '../../shared/domain/topics/delete-topic.ts';
import { type ListTopicsInput, listTopics } from '../../shared/domain/topics/list-topics.ts';
import {
  storedTopic,
  storedTopicCopies,
  type TopicItem,
  topicStatsDeltas,
} from '../../shared/domain/topics/topic-item.ts';
import { storedTopicSearchEntries } from '../../shared/domain/topics/topic-search-entries.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import * as v from 'valibot';
import { commandLine } from '../support/command-line.ts';
import { medianLatencyOf, readUnits } from './support/measure.ts';
import { startBenchStack } from './support/bench-stack.ts';

const { values } = commandLine({
  args: process.argv.slice(3),
  usage: `usage: npm run bench -- topics [--sizes N,N] [--feeds N,N]
  --sizes N,N   numbers of topics measured, ascending (default 1000,10000)
  --feeds N,N   feeds carrying each deleted topic (default 1000,10000)
example: npm run bench -- topics --sizes 1000,3000 --feeds 1000,3000`,
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    feeds: { type: 'string', default: '1000,10000' },
  },
});
const numbers = (text: string) => text.split(',').map((part) => Number(part.trim()));
const SIZES = numbers(values.sizes);
const FEED_COUNTS = numbers(values.feeds);
const SAMPLES = 9;
const medianLatency = medianLatencyOf({ samples: SAMPLES, warmup: 3 });
const PARENTS = 20;
const run = Date.now().toString(36);

const LinkSchema = v.object({ pk: v.string() });
async function hasLinks(topicId: number): Promise<boolean> {
  for (const list of [topicPosts(topicId), topicUnlistedPosts(topicId)]) {
    if ((await queryItems(list, LinkSchema, { limit: 1 })).length > 0) return true;
  }
  return false;
}

const stack = await startBenchStack(run);

try {
  const admin = await createUser({
    login: `bench_${run}`,
    email: `bench_${run}@example.com`,
    hostRole: 'administrator',
  });
  const caller: Caller = {
    id: admin.id,
    username: admin.username,
    hostRole: 'administrator',
    communityRoles: [],
    status: 'active',
  };
  const authorization = `Basic ${Buffer.from(`${admin.username}:${admin.app_password}`).toString('base64')}`;

  const cases: Array<[string, Partial<ListTopicsInput>]> = [
    ['no filter', {}],
    ['status=inactive', { status: 'inactive' }],
    ['parent_id=1', { parent_id: 1 }],
    ['search (every title)', { search: 'topic' }],
    ['search (one title)', { search: 'needle-7 ' }],
    ['search (1 title in 1 000)', { search: 'needle-' }],
    ['search (two letters)', { search: 'ab' }],
  ];
  const rows: Array<Record<string, string | number>> = [];
  let filled = 0;
  for (const size of SIZES) {
    const started = Date.now();
    await fillTopics(filled, size);
    filled = size;
    process.stdout.write(`filled ${size} topics in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    for (const [name, filter] of cases) {
      const input: ListTopicsInput = { page: 1, per_page: 50, ...filter };
      const query = new URLSearchParams(
        Object.entries(input).map(([key, value]) => [key, String(value)] as [string, string]),
      );
      rows.push({
        topics: size,
        list: name,
        'p1 median ms': (await medianLatency(`${stack.apiUrl}/admin/topics?${query}`, authorization)).toFixed(
          1,
        ),
        'p1 RCU': await readUnits(() => listTopics(caller, input)),
      });
    }
  }
  console.table(rows);

  const deletes: Array<Record<string, string | number>> = [];
  let nextPostId = 10_000_000;
  for (const [index, feeds] of FEED_COUNTS.entries()) {
    const topicId = 5_000_000 + index;
    const doomed = { ...topic(topicId, null), status: 'active' as const, posts_count: feeds };
    await writeAll([
      storedTopic(doomed),
      ...storedTopicCopies(doomed),
      ...storedTopicSearchEntries(doomed),
      ...Array.from({ length: feeds }, () => {
        const post = feed(nextPostId++, admin.id, topicId);
        return [storedPost(post), storedPostListing(post), storedPostTopicLink(post, topicId)];
      }).flat(),
    ]);
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...topicStatsKey(), entity: 'topic_stats', ...stats(filled, 1) },
      }),
    );
    const started = performance.now();
    await deleteTopic(caller, topicId);
    const answered = performance.now() - started;
    while (await hasLinks(topicId)) await new Promise((resolve) => setTimeout(resolve, 250));
    const detached = performance.now() - started;
    deletes.push({
      'feeds carrying the topic': feeds,
      'answer ms': answered.toFixed(0),
      'all detached ms (worker)': detached.toFixed(0),
      'worker feeds per s': (feeds / (detached / 1000)).toFixed(0),
    });
  }
  console.table(deletes);
} finally {
  await stack.stop();
}

/** Titles: "Topic <id> about things", one in a thousand "Needle-<id> topic" (so "needle-7 " is one title). */
function topic(id: number, parent: number | null): TopicItem {
  const title = id % 1000 === 7 ? `Needle-${id} topic` : `Topic ${id} about things`;
  return {
    id,
    title,
    title_lc: title.toLowerCase(),
    slug: `topic-${id}`,
    description: 'A description of ordinary length, so that each item is about as large as a real topic row.',
    color: '#3366ff',
    icon: 'fa-solid fa-tag',
    parent_id: parent,
    status: id % 4 === 0 ? 'inactive' : 'active',
    serial: id,
    posts_count: 0,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  };
}

function feed(id: number, userId: number, topicId: number): PostItem {
  return {
    id,
    user_id: userId,
    space_id: null,
    space_visibility: 'public',
    title: `Feed ${id}`,
    slug: `feed-${id}`,
    message: 'Hello',
    message_rendered: '<p>Hello</p>',
    type: 'text',
    status: 'published',
    topic_ids: [topicId],
    comments_count: 0,
    reactions_count: 0,
    media: [],
    created_at: new Date(Date.parse('2025-01-01T00:00:00Z') + id).toISOString(),
    updated_at: '2025-01-01T00:00:00.000Z',
  };
}

/** Topics [from, to): ids 1..to, the first PARENTS top-level, the rest children of one of them. */
async function fillTopics(from: number, to: number): Promise<void> {
  const items = [];
  for (let n = from; n < to; n++) {
    const id = n + 1;
    const item = topic(id, id <= PARENTS ? null : (id % PARENTS) + 1);
    items.push(storedTopic(item), ...storedTopicCopies(item), ...storedTopicSearchEntries(item));
  }
  await writeAll(items);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...topicStatsKey(), entity: 'topic_stats', ...stats(to, 0) },
    }),
  );
}

/** The stats item as the write paths would have kept it for topics 1..count (plus `extra` top-level ones). */
function stats(count: number, extra: number): Record<string, number> {
  const counters: Record<string, number> = {};
  const add = (deltas: Record<string, number>) => {
    for (const [name, amount] of Object.entries(deltas)) counters[name] = (counters[name] ?? 0) + amount;
  };
  for (let id = 1; id <= count; id++)
    add(topicStatsDeltas(topic(id, id <= PARENTS ? null : (id % PARENTS) + 1)));
  for (let i = 0; i < extra; i++) add(topicStatsDeltas({ status: 'active', parent_id: null }));
  return counters;
}

async function writeAll(items: Array<Record<string, unknown>>): Promise<void> {
  const chunks: Array<Array<Record<string, unknown>>> = [];
  for (let start = 0; start < items.length; start += 25) chunks.push(items.slice(start, start + 25));
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
}
