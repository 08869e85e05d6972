import { allTopics } from '../../db/keys/topics.ts';
import { queryItems } from '../../db/reads.ts';
import { TopicItemSchema } from './topic-item.ts';

/** Topics, one method per access pattern (ACCESS_PATTERNS.md, "Topics"). */

/** The largest serial in use (0 when there are no topics): the last topic in display order. */
export async function findLargestTopicSerial(): Promise<number> {
  const [last] = await queryItems(allTopics(), TopicItemSchema, { ascending: false, limit: 1 });
  return last?.serial ?? 0;
}
