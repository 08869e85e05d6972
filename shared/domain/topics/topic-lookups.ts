import { topicKey } from '../../db/keys/topics.ts';
import { itemsRead } from '../../db/read-together.ts';
import { batchGetItems } from '../../db/reads.ts';
import { type TopicItem, TopicItemSchema } from './topic-item.ts';
import { findLargestTopicSerial } from './topic-repository.ts';

/**
 * The topics domain's public reads (ACCESS_PATTERNS.md, "Topics"): topics by id (BatchGetItem), alone or with
 * other reads, and the serial a new topic takes. The answers are parsed topics (no keys), never stored items.
 */

/** Topics by id (BatchGetItem); unknown ids are absent from the answer. */
export function findTopicsByIds(topicIds: readonly number[]): Promise<TopicItem[]> {
  return topicIds.length === 0 ? Promise.resolve([]) : batchGetItems(topicIds.map(topicKey), TopicItemSchema);
}

/** `findTopicsByIds` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export const topicsByIdsRead = (topicIds: readonly number[]) =>
  itemsRead([...new Set(topicIds)].map(topicKey), TopicItemSchema);

/** The serial a topic created without one takes: after the largest in use (1 when there are no topics). */
export async function nextTopicSerial(): Promise<number> {
  return (await findLargestTopicSerial()) + 1;
}
