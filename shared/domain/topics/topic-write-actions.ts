import { counterUpdate } from '../../db/counters.ts';
import { topicKey, topicPostCounts, topicStatsKey } from '../../db/keys/topics.ts';
import { shardKey, shardOf } from '../../db/sharded-counters.ts';
import { existsCheck, type TransactAction } from '../../db/transact.ts';
import {
  storedTopic,
  storedTopicCopies,
  storedTopicSlugGuard,
  type TopicItem,
  topicStatsDeltas,
} from './topic-item.ts';
import { topicPostCountKeyOf } from './topic-repository.ts';
import { storedTopicSearchEntries } from './topic-search-entries.ts';

/**
 * The writes of topics' items that other domains compose into their own transactions or import plans: a feed's
 * count on its topics, and an imported topic whole. Whoever writes them never builds a topic item or key itself.
 */

/**
 * The actions that move a topic's `posts_count` (published feeds carrying it) in the caller's transaction, by
 * `delta` per feed of `postIds` (each feed on its own shard). The topic item is never written (it carries the topic
 * lists' index entries): an increment checks that the topic still exists (a ConditionCheck, first), so a feed write
 * racing a topic delete is cancelled rather than counting under a deleted topic; a decrement never takes a shard
 * below zero, and a shard exists only while its topic does (the topic's delete removes them), so a decrement for
 * a deleted topic is cancelled too.
 */
export function topicPostsCountActions(
  topicId: number,
  delta: 1 | -1,
  postIds: readonly number[],
): TransactAction[] {
  const aggregate = topicPostCounts(topicId);
  const perShard = new Map<number, number>();
  for (const postId of postIds) {
    const shard = shardOf(aggregate, postId);
    perShard.set(shard, (perShard.get(shard) ?? 0) + delta);
  }
  const updates = [...perShard].map(([shard, amount]) =>
    counterUpdate(
      shardKey(aggregate, shard),
      { posts_count: amount },
      {
        setOnCreate: { entity: 'topic_post_count', topic_id: topicId },
      },
    ),
  );
  if (delta < 0) return updates;
  return [existsCheck(topicKey(topicId)), ...updates];
}

/**
 * What an imported topic writes: its slug guard, its item and read copies (status and parent unchanged by a
 * re-run) with its search entries, and its count on the topic totals.
 */
export function importedTopicWrites(topic: TopicItem) {
  return {
    guard: storedTopicSlugGuard(topic.slug, topic.id),
    items: [
      { item: storedTopic(topic), unchanged: ['status', 'parent_id'] },
      ...storedTopicSearchEntries(topic).map((entry) => ({ item: entry })),
      ...storedTopicCopies(topic).map((copy) => ({ item: copy, unchanged: ['status', 'parent_id'] })),
    ],
    counts: [{ key: topicStatsKey(), deltas: topicStatsDeltas(topic) }],
  };
}

/**
 * An imported published feed's count on one topic's `posts_count`: the shard it moves (created whole by the
 * import, with `identity`) and by how much.
 */
export function importedPostTopicCount(topicId: number, postId: number) {
  return {
    key: topicPostCountKeyOf(topicId, postId),
    identity: { entity: 'topic_post_count', topic_id: topicId },
    deltas: { posts_count: 1 },
  };
}
