import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName } from '../../db/client.ts';
import { topicFeedStatsKey } from '../../db/keys/feeds.ts';
import {
  allTopics,
  topicKey,
  topicSlugGuardKey,
  topicStatsKey,
  topicsUnderParent,
  topicsWithStatus,
} from '../../db/keys/topics.ts';
import { keyCondition, type Partition } from '../../db/partition.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { batchGetItems, batchGetRawItems, getItem, parseItem, queryAll, queryItems } from '../../db/reads.ts';
import {
  type TopicItem,
  TopicItemSchema,
  type TopicStats,
  TopicStatsItemSchema,
  type TopicStatus,
} from './topic-item.ts';

/**
 * Topic reads, one method per access pattern (ACCESS_PATTERNS.md, "Topics"); the writes are in
 * topic-write-repository.ts, the feed links in topic-link-repository.ts. Other domains read topics by id through
 * topic-lookups.ts and import topics through topic-write-actions.ts.
 */

/** The largest serial in use (0 when there are no topics): the last topic in display order. */
export async function findLargestTopicSerial(): Promise<number> {
  const [last] = await queryItems(allTopics(), TopicItemSchema, { ascending: false, limit: 1 });
  return last?.serial ?? 0;
}

/** One topic, strongly consistent: every write decides on the state it read. */
export function findTopicById(topicId: number): Promise<TopicItem | undefined> {
  return getItem(topicKey(topicId), TopicItemSchema, { consistent: true });
}

/** The topic stats item (strongly consistent when a write's condition depends on it). */
export async function getTopicStats(options: { consistent?: boolean } = {}): Promise<TopicStats> {
  return (await getItem(topicStatsKey(), TopicStatsItemSchema, options)) ?? {};
}

const GuardKeySchema = v.object({ pk: v.string() });

/** Which of these slugs are taken (one BatchGetItem, eventually consistent: a hint; the guard's write decides). */
export async function findTakenTopicSlugs(slugs: readonly string[]): Promise<Set<string>> {
  const guards = await batchGetItems(slugs.map(topicSlugGuardKey), GuardKeySchema);
  const taken = new Set(guards.map((guard) => guard.pk));
  return new Set(slugs.filter((slug) => taken.has(topicSlugGuardKey(slug).pk)));
}

export interface TopicListFilter {
  readonly status?: TopicStatus | undefined;
  /** 0 or null: top-level topics. */
  readonly parentId?: number | null | undefined;
}

/**
 * The narrowest key-served list for a filter: under a parent (G2), with a status (G3), or all (G1), each in
 * display order (serial, then id). With both parent and status, the status is a filter over the siblings.
 */
function listPartition(filter: TopicListFilter): { partition: Partition; statusFilter?: TopicStatus } {
  if (filter.parentId !== undefined) {
    return {
      partition: topicsUnderParent(filter.parentId || null),
      ...(filter.status ? { statusFilter: filter.status } : {}),
    };
  }
  if (filter.status !== undefined) return { partition: topicsWithStatus(filter.status) };
  return { partition: allTopics() };
}

/** One page of a topic list; `total` (from the stats item), when given, answers a page past the end unread. */
export function queryTopicPage(
  filter: TopicListFilter,
  page: { page: number; perPage: number; total?: number | undefined },
): Promise<PageResult<TopicItem>> {
  const { partition, statusFilter } = listPartition(filter);
  return queryPage({
    partition,
    schema: TopicItemSchema,
    ascending: true,
    page: page.page,
    perPage: page.perPage,
    total: page.total,
    ...(statusFilter
      ? {
          filter: {
            expression: '#status = :status',
            names: { '#status': 'status' },
            values: { ':status': statusFilter },
          },
        }
      : {}),
  });
}

/**
 * One page of the topics of the filtered list whose lower-cased title contains `term` (already lower-cased), in
 * display order, and how many match in all. A substring cannot be key-served: the whole narrowest list is read
 * (ACCESS_PATTERNS.md, "Topics", the search row, states that bounded cost), once: items are transferred only up
 * to the end of the page, and the rest of the list is only counted (`Select: COUNT`).
 */
export async function searchTopicPage(
  filter: TopicListFilter,
  term: string,
  page: { offset: number; limit: number },
): Promise<{ items: TopicItem[]; total: number }> {
  const { partition, statusFilter } = listPartition(filter);
  const condition = keyCondition(partition);
  const names: Record<string, string> = { ...condition.names, '#title': 'title_lc' };
  const values: Record<string, unknown> = { ...condition.values, ':term': term };
  let expression = 'contains(#title, :term)';
  if (statusFilter) {
    names['#status'] = 'status';
    values[':status'] = statusFilter;
    expression += ' AND #status = :status';
  }
  const query = (startKey: Record<string, unknown> | undefined, countOnly: boolean) =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        ...(partition.index ? { IndexName: partition.index } : {}),
        KeyConditionExpression: condition.expression,
        FilterExpression: expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: true,
        ExclusiveStartKey: startKey,
        ...(countOnly ? { Select: 'COUNT' as const } : {}),
      }),
    );

  const end = page.offset + page.limit;
  const items: TopicItem[] = [];
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result: QueryCommandOutput = await query(startKey, total >= end);
    if (result.Items) {
      for (const item of result.Items) {
        if (total >= page.offset && total < end) items.push(parseItem(TopicItemSchema, item));
        total++;
      }
    } else {
      total += result.Count ?? 0;
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return { items, total };
}

/** The children of a topic (G2, every page: a delete adopts them all). */
export async function findChildTopics(topicId: number): Promise<TopicItem[]> {
  const children: TopicItem[] = [];
  for await (const page of queryAll(topicsUnderParent(topicId), TopicItemSchema)) children.push(...page);
  return children;
}

/**
 * The topics with their `posts_count`, read from each topic's feed totals item (`topicFeedStatsKey`): one key a
 * topic, so a page of up to 100 topics (the contract's largest `per_page`) is one BatchGetItem. Consistent, so a
 * count reflects every feed write completed before the read.
 *
 * Why that item holds the count: every published feed (not a lesson) adds 1 to exactly one counter, named
 * `<topic set>|<p|m><space>`, on the item of each topic it is counted under (feeds domain, `feedAggregates`), in
 * the transaction that writes the feed and its links; so the counters of a topic's item sum to the published feeds
 * carrying it. The set counted under can still name a deleted topic (a detach rewrites no counter), which only
 * matters for that deleted topic, never listed. Non-counter attributes (keys, `entity`, `topic_id`) carry no `|`.
 * It is the one item a feed write moves per topic (no other `posts_count` item exists: the former shards are gone,
 * `storage:upgrade` removes an older stage's), so the count costs no write of its own, and a page is one key a topic.
 */
export async function withPostCounts(topics: readonly TopicItem[]): Promise<TopicItem[]> {
  const counts = new Map<string, number>();
  for (const item of await batchGetRawItems(
    topics.map((topic) => topicFeedStatsKey(topic.id)),
    true,
  )) {
    let sum = 0;
    for (const [name, value] of Object.entries(item)) {
      if (name.includes('|') && typeof value === 'number') sum += value;
    }
    counts.set(String(item.pk), sum);
  }
  return topics.map((topic) => ({ ...topic, posts_count: counts.get(topicFeedStatsKey(topic.id).pk) ?? 0 }));
}
