import * as v from 'valibot';
import { indexEntry } from '../../db/partition.ts';
import { orderSort } from '../../db/keys/sort.ts';
import {
  allTopics,
  topicKey,
  topicSlugGuardKey,
  topicsUnderParent,
  topicsWithStatus,
} from '../../db/keys/topics.ts';
import { TOPIC_STATUSES } from '../../vocabulary/topics.ts';

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
  /** Published feeds carrying the topic. */
  posts_count: integer,
  created_at: v.string(),
  updated_at: v.string(),
});
export type TopicItem = v.InferOutput<typeof TopicItemSchema>;

/** Listed in display order among all topics, under its parent, and with its status. */
export function storedTopic(topic: TopicItem) {
  const sort = orderSort(topic.serial, topic.id);
  return {
    ...topicKey(topic.id),
    entity: 'topic',
    ...topic,
    ...indexEntry(allTopics(), sort),
    ...indexEntry(topicsUnderParent(topic.parent_id), sort),
    ...indexEntry(topicsWithStatus(topic.status), sort),
  };
}

export const storedTopicSlugGuard = (slug: string, topicId: number) => ({
  ...topicSlugGuardKey(slug),
  entity: 'topic_slug_guard',
  topic_id: topicId,
});

/** The `ADD` deltas one topic makes on the topic stats item (`topicStatsKey`); negate them to remove it. */
export function topicStatsDeltas(topic: Pick<TopicItem, 'status' | 'parent_id'>): Record<string, number> {
  const parent = topic.parent_id ?? 0;
  return {
    total: 1,
    [`status:${topic.status}`]: 1,
    [`parent:${parent}`]: 1,
    [`parent:${parent}:status:${topic.status}`]: 1,
  };
}
