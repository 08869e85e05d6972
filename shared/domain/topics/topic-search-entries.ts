import { orderSort } from '../../db/keys/sort.ts';
import { TOPIC_SEARCH_INDEXES, topicSearchKey, topicsContainingGram } from '../../db/keys/topics.ts';
import { type ItemKey, indexEntry } from '../../db/partition.ts';
import { deleteAction, putAction, type TransactAction } from '../../db/transact.ts';
import type { TopicItem } from './topic-item.ts';

/**
 * The title search index (ACCESS_PATTERNS.md, "Topics", `search=`). `search` is a case-insensitive substring of
 * the title (decisions.md), and every substring of three characters or more contains a trigram of the title, so a
 * term's matches are among the topics listed under any one of its trigrams. A topic's distinct trigrams (of its
 * lower-cased title, by code point) are packed three to a search entry, one per index (G1–G3), sorted like every
 * topic list (serial, then id); each entry copies what a search filters on (`title_lc`, `status`, `parent_key`).
 *
 * A title of at most 192 characters has at most 190 trigrams, so at most 64 entries: a topic write replaces them
 * all inside its own transaction (≤ 73 actions of the 100 allowed, with the read copies), and the index never disagrees with the topic.
 */

/** Length of the indexed grams: terms shorter than this are not index-served. */
export const GRAM_LENGTH = 3;

/** The distinct trigrams of `text` (already lower-cased), in order of first appearance. */
export function trigramsOf(text: string): string[] {
  const chars = Array.from(text);
  const grams = new Set<string>();
  for (let start = 0; start + GRAM_LENGTH <= chars.length; start++) {
    grams.add(chars.slice(start, start + GRAM_LENGTH).join(''));
  }
  return [...grams];
}

/** How many search entries a topic state has. */
export const searchEntryCount = (topic: Pick<TopicItem, 'title_lc'>): number =>
  Math.ceil(trigramsOf(topic.title_lc).length / TOPIC_SEARCH_INDEXES.length);

/** The search entries of one topic state (none for a title under three characters). */
export function storedTopicSearchEntries(topic: TopicItem): Array<Record<string, unknown> & ItemKey> {
  const grams = trigramsOf(topic.title_lc).sort();
  const sort = orderSort(topic.serial, topic.id);
  const entries: Array<Record<string, unknown> & ItemKey> = [];
  for (let slot = 0; slot * TOPIC_SEARCH_INDEXES.length < grams.length; slot++) {
    const item: Record<string, unknown> & ItemKey = {
      ...topicSearchKey(topic.id, slot),
      entity: 'topic_search',
      topic_id: topic.id,
      serial: topic.serial,
      title_lc: topic.title_lc,
      status: topic.status,
      parent_key: topic.parent_id ?? 0,
    };
    TOPIC_SEARCH_INDEXES.forEach((index, position) => {
      const gram = grams[slot * TOPIC_SEARCH_INDEXES.length + position];
      if (gram !== undefined) Object.assign(item, indexEntry(topicsContainingGram(gram, index), sort));
    });
    entries.push(item);
  }
  return entries;
}

/**
 * The actions that move a topic's search entries from `before` to `after` (either may be absent): every entry of
 * the new state is put (a Put replaces the old entry of that slot), the slots the new state no longer has are
 * deleted. Nothing when nothing a search sees changed.
 */
export function searchEntryActions(
  before: TopicItem | undefined,
  after: TopicItem | undefined,
): TransactAction[] {
  if (before && after && !searchFieldsChanged(before, after)) return [];
  const puts = after ? storedTopicSearchEntries(after).map((item) => putAction(item)) : [];
  const surplus = before ? searchEntryCount(before) - puts.length : 0;
  const deletes = Array.from({ length: Math.max(0, surplus) }, (_, i) =>
    deleteAction(topicSearchKey((before as TopicItem).id, puts.length + i)),
  );
  return [...puts, ...deletes];
}

const searchFieldsChanged = (before: TopicItem, after: TopicItem) =>
  before.title_lc !== after.title_lc ||
  before.status !== after.status ||
  before.parent_id !== after.parent_id ||
  before.serial !== after.serial;
