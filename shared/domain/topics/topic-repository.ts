import { allTopics, topicKey } from '../../db/keys/topics.ts';
import { batchGetItems, queryItems } from '../../db/reads.ts';
import { type TransactAction, updateAction } from '../../db/transact.ts';
import { type TopicItem, TopicItemSchema } from './topic-item.ts';

/** Topics, one method per access pattern (ACCESS_PATTERNS.md, "Topics"). */

/** The largest serial in use (0 when there are no topics): the last topic in display order. */
export async function findLargestTopicSerial(): Promise<number> {
  const [last] = await queryItems(allTopics(), TopicItemSchema, { ascending: false, limit: 1 });
  return last?.serial ?? 0;
}

/** Topics by id (BatchGetItem); unknown ids are absent from the answer. */
export function findTopicsByIds(topicIds: readonly number[]): Promise<TopicItem[]> {
  return topicIds.length === 0 ? Promise.resolve([]) : batchGetItems(topicIds.map(topicKey), TopicItemSchema);
}

/**
 * Moves a topic's `posts_count` (published feeds carrying it) in the caller's transaction. The topic must still
 * exist: a feed write racing a topic delete is cancelled rather than resurrecting the topic as a bare counter.
 * A decrement never takes the count below zero.
 */
export function topicPostsCountAction(topicId: number, delta: 1 | -1): TransactAction {
  return updateAction(topicKey(topicId), {
    UpdateExpression: 'ADD posts_count :delta',
    ConditionExpression: delta < 0 ? 'attribute_exists(pk) AND posts_count >= :one' : 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':delta': delta, ...(delta < 0 ? { ':one': 1 } : {}) },
  });
}
