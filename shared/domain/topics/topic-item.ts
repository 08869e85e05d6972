import * as v from 'valibot';
import { indexEntry } from '../../db/partition.ts';
import { replicaItems } from '../../db/replicated-item.ts';
import { orderSort } from '../../db/keys/sort.ts';
import {
  allTopics,
  topicKey,
  topicReadCopies,
  topicSlugGuardKey,
  topicsUnderParent,
  topicsWithStatus,
} from '../../db/keys/topics.ts';
import { TOPIC_STATUSES, type TopicStatus } from '../../vocabulary/topics.ts';

export type { TopicStatus } from '../../vocabulary/topics.ts';

const integer = v.pipe(v.number(), v.integer());

/** A topic as stored (`TOPIC#<id>` / `TOPIC`); `title_lc` serves the case-insensitive title search. */
export const TopicItemSchema = v.object({
  id: integer,
  title: v.string(),
  title_lc: v.string(),
  slug: v.string(),
  description: v.string(),
  color: v.string(),
  icon: v.string(),
  parent_id: v.nullable(integer),
  status: v.picklist(TOPIC_STATUSES),
  serial: integer,
  /**
   * Published feeds carrying the topic: not stored on the topic item (counted on its feed totals item, one key a
   * topic); reads that show it fill it in from there (`withPostCounts`). Items written before the move carry a
   * stale copy, which is ignored.
   */
  posts_count: v.optional(integer, 0),
  created_at: v.string(),
  updated_at: v.string(),
});
export type TopicItem = v.InferOutput<typeof TopicItemSchema>;

/** What a topic item stores of the topic (its `posts_count` is counted elsewhere). */
function topicFields(topic: TopicItem) {
  const { posts_count: _counted, ...fields } = topic;
  return fields;
}

/** Listed in display order among all topics, under its parent, and with its status. */
export function storedTopic(topic: TopicItem) {
  const sort = orderSort(topic.serial, topic.id);
  return {
    ...topicKey(topic.id),
    entity: 'topic',
    ...topicFields(topic),
    ...indexEntry(allTopics(), sort),
    ...indexEntry(topicsUnderParent(topic.parent_id), sort),
    ...indexEntry(topicsWithStatus(topic.status), sort),
  };
}

/** The attributes of a topic's read copies (`topicReadCopies`): the topic's, without index entries (no list). */
export const topicCopyAttributes = (topic: TopicItem) => ({ entity: 'topic_copy', ...topicFields(topic) });

/** A topic's read copies as stored (every writer of the topic item writes them too). */
export const storedTopicCopies = (topic: TopicItem) =>
  replicaItems(topicReadCopies(topic.id), topicCopyAttributes(topic));

export const storedTopicSlugGuard = (slug: string, topicId: number) => ({
  ...topicSlugGuardKey(slug),
  entity: 'topic_slug_guard',
  topic_id: topicId,
});

/**
 * The counter of the topic stats item (`topicStatsKey`) that counts the topics of one list: `total`,
 * `status:<s>`, `parent:<id>` (0 = top level) or `parent:<id>:status:<s>`.
 */
export function topicCountName(filter: {
  status?: TopicStatus | undefined;
  parentId?: number | null | undefined;
}) {
  const parent = filter.parentId === undefined ? undefined : (filter.parentId ?? 0);
  if (parent !== undefined && filter.status !== undefined) return `parent:${parent}:status:${filter.status}`;
  if (parent !== undefined) return `parent:${parent}`;
  if (filter.status !== undefined) return `status:${filter.status}`;
  return 'total';
}

/** The `ADD` deltas one topic makes on the topic stats item (`topicStatsKey`); negate them to remove it. */
export function topicStatsDeltas(topic: Pick<TopicItem, 'status' | 'parent_id'>): Record<string, number> {
  return {
    [topicCountName({})]: 1,
    [topicCountName({ status: topic.status })]: 1,
    [topicCountName({ parentId: topic.parent_id })]: 1,
    [topicCountName({ parentId: topic.parent_id, status: topic.status })]: 1,
  };
}

/**
 * Bumped (on the stats item) by every parent change that could close a cycle, with the condition that it still
 * has the value read before the ancestor walk: two concurrent re-parentings cannot both pass a walk that the
 * other would have failed.
 */
export const HIERARCHY_VERSION = 'hierarchy_version';

/** The topic stats item: its counters by name (a counter never written reads as absent, i.e. 0). */
export const TopicStatsItemSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform((raw) => {
    const counters: Record<string, number> = {};
    for (const [name, value] of Object.entries(raw)) if (typeof value === 'number') counters[name] = value;
    return counters;
  }),
);
export type TopicStats = v.InferOutput<typeof TopicStatsItemSchema>;

/**
 * The `updated_at` of a write that replaces one read at `seen`: now, but always later than `seen`, so a
 * condition `updated_at = :seen` (the optimistic check of every topic write) can never pass twice on one state.
 */
export function nextUpdatedAt(seen: string): string {
  const now = Date.now();
  const after = Date.parse(seen) + 1;
  return new Date(Number.isNaN(after) ? now : Math.max(now, after)).toISOString();
}
