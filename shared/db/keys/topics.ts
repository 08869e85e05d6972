import { type ItemKey, indexPartition, type Partition } from '../partition.ts';

/** Topics (PRO): display order is `orderSort(serial, id)` in every list. */
export const topicKey = (topicId: number): ItemKey => ({ pk: `TOPIC#${topicId}`, sk: 'TOPIC' });
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
 * (parent 0 = top level); `posts_count` itself lives on each topic item.
 */
export const topicStatsKey = (): ItemKey => ({ pk: 'TOPICS', sk: 'STATS' });
