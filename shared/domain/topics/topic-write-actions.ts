import { topicStatsKey } from '../../db/keys/topics.ts';
import {
  storedTopic,
  storedTopicCopies,
  storedTopicSlugGuard,
  type TopicItem,
  topicStatsDeltas,
} from './topic-item.ts';
import { storedTopicSearchEntries } from './topic-search-entries.ts';

/**
 * The writes of topics' items that other domains compose into their own import plans: an imported topic whole.
 * Whoever writes them never builds a topic item or key itself. (A feed's count on its topics is its topics' feed
 * totals, which the feeds domain moves: `feedAggregates`.)
 */

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
