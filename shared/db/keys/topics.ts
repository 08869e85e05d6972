import { type ItemKey, indexPartition, type Partition } from '../partition.ts';
import { type ReplicatedItem, replicatedItem } from '../replicated-item.ts';
import { type ShardedAggregate, shardedAggregate } from '../sharded-counters.ts';

/** Topics (PRO): display order is `orderSort(serial, id)` in every list. */
export const topicKey = (topicId: number): ItemKey => ({ pk: `TOPIC#${topicId}`, sk: 'TOPIC' });
/**
 * A topic's read copies (`TOPIC#<id>#R<0..3>` / `TOPIC`, shared/db/replicated-item.ts): the topic without its index
 * entries, written in every transaction that writes the topic; reads by id take one at random, so the few topics
 * that most timeline requests show are not each one partition that every such request reads.
 */
export const topicReadCopies = (topicId: number): ReplicatedItem => replicatedItem(topicKey(topicId), 4);
export const topicSlugGuardKey = (slug: string): ItemKey => ({ pk: `TOPICSLUG#${slug}`, sk: 'TOPICSLUG' });

/** GSI1: all topics in display order. */
export const allTopics = (): Partition => indexPartition('GSI1', 'TOPICS');
/** GSI2: topics under one parent (0 = top level) in display order. */
export const topicsUnderParent = (parentId: number | null): Partition =>
  indexPartition('GSI2', `TOPICS#PARENT#${parentId ?? 0}`);
/** GSI3: topics with one status in display order. */
export const topicsWithStatus = (status: 'active' | 'inactive'): Partition =>
  indexPartition('GSI3', `TOPICS#STATUS#${status}`);

/**
 * Topic totals in one item: `total`, `status:<active|inactive>`, `parent:<id>`, `parent:<id>:status:<s>`
 * (parent 0 = top level). A topic's `posts_count` is the sum of its feed totals item (`topicFeedStatsKey`,
 * keys/feeds.ts).
 */
export const topicStatsKey = (): ItemKey => ({ pk: 'TOPICS', sk: 'STATS' });

/**
 * Former items, no longer written or read: a topic's `posts_count` spread over 4 shards (`TOPIC#<id>#S<n>` /
 * `POSTCOUNT`), which every feed write moved beside the topic's feed totals item (`topicFeedStatsKey`) that holds
 * the same count. Named only so that `storage:upgrade` can remove what older stages left.
 */
export const topicPostCounts = (topicId: number): ShardedAggregate =>
  shardedAggregate({ pk: `TOPIC#${topicId}`, sk: 'POSTCOUNT' }, 4);

/**
 * Title search: a topic's search entries (`TOPIC#<id>` / `SEARCH#<slot>`), each listing the topic in up to three
 * trigram partitions (one per index, G1–G3) in display order. A trigram's topics are the union of its partition in
 * the three indexes: the writer packs a title's trigrams three to an entry, in any index.
 */
export const topicSearchKey = (topicId: number, slot: number): ItemKey => ({
  pk: `TOPIC#${topicId}`,
  sk: `SEARCH#${String(slot).padStart(3, '0')}`,
});
export const TOPIC_SEARCH_INDEXES = ['GSI1', 'GSI2', 'GSI3'] as const;
/** The topics whose lower-cased title contains `gram` (three characters), in one index, in display order. */
export const topicsContainingGram = (gram: string, index: (typeof TOPIC_SEARCH_INDEXES)[number]): Partition =>
  indexPartition(index, `TOPICGRAM#${gram}`);

/** The marker of a deleted topic whose feeds are still being detached (by the `topics` worker). */
export const topicDetachKey = (topicId: number): ItemKey => ({ pk: `TOPIC#${topicId}`, sk: 'DETACH' });
