import { topicReadCopies } from '../../db/keys/topics.ts';
import { type KeyedRead, mapRead, readTogether } from '../../db/read-together.ts';
import { parseItem } from '../../db/reads.ts';
import { replicatedItemsRead } from '../../db/replicated-item.ts';
import { type TopicItem, TopicItemSchema } from './topic-item.ts';
import { findLargestTopicSerial } from './topic-repository.ts';

/**
 * The topics domain's public reads (ACCESS_PATTERNS.md, "Topics"): topics by id (BatchGetItem), alone or with
 * other reads, and the serial a new topic takes. The answers are parsed topics (no keys), never stored items.
 */

/** Topics by id (BatchGetItem); unknown ids are absent from the answer. */
export async function findTopicsByIds(topicIds: readonly number[]): Promise<TopicItem[]> {
  const [topics] = await readTogether([topicsByIdsRead(topicIds)] as const);
  return topics;
}

/**
 * `findTopicsByIds` as a read to send with others in one BatchGetItem (shared/db/read-together.ts), in the order
 * asked: one of each topic's read copies at random (`topicReadCopies`; most timeline requests show the same few
 * topics, so no topic's partition takes them all), with the batch's consistency. A topic written before it had
 * copies is read from its item, one more BatchGetItem only then (`storage:upgrade` gives it copies); a deleted
 * topic's copies read as absent without it.
 */
export const topicsByIdsRead = (topicIds: readonly number[]): KeyedRead<TopicItem[]> =>
  mapRead(replicatedItemsRead([...new Set(topicIds)].map(topicReadCopies)), (found) =>
    found.flatMap((attributes) => (attributes ? [parseItem(TopicItemSchema, attributes)] : [])),
  );

/** The serial a topic created without one takes: after the largest in use (1 when there are no topics). */
export async function nextTopicSerial(): Promise<number> {
  return (await findLargestTopicSerial()) + 1;
}
