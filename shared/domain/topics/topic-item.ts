import {
  topicByParentIndex,
  topicByStatusIndex,
  topicKey,
  topicOrderIndex,
  topicSlugGuardKey,
} from '../../db/keys.ts';

export const TOPIC_STATUSES = ['active', 'inactive'] as const;
export type TopicStatus = (typeof TOPIC_STATUSES)[number];
export const TOPIC_TITLE_MAX_LENGTH = 192;
/** decisions.md: `#RGB` or `#RRGGBB`. */
export const TOPIC_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A topic as stored (`TOPIC#<id>` / `TOPIC`); `title_lc` serves the case-insensitive title search. */
export interface TopicItem {
  id: number;
  title: string;
  title_lc: string;
  slug: string;
  description: string;
  color: string;
  icon: string;
  parent_id: number | null;
  status: TopicStatus;
  serial: number;
  /** Published feeds carrying the topic. */
  posts_count: number;
  created_at: string;
  updated_at: string;
}

export const storedTopic = (topic: TopicItem) => ({
  ...topicKey(topic.id),
  entity: 'topic',
  ...topic,
  ...topicOrderIndex(topic.serial, topic.id),
  ...topicByParentIndex(topic.parent_id, topic.serial, topic.id),
  ...topicByStatusIndex(topic.status, topic.serial, topic.id),
});

export const storedTopicSlugGuard = (slug: string, topicId: number) => ({
  ...topicSlugGuardKey(slug),
  entity: 'topic_slug_guard',
  topic_id: topicId,
});

/** The `ADD` deltas one new topic makes on the topic stats item (`topicStatsKey`). */
export function topicStatsDeltas(topic: Pick<TopicItem, 'status' | 'parent_id'>): Record<string, number> {
  const parent = topic.parent_id ?? 0;
  return {
    total: 1,
    [`status:${topic.status}`]: 1,
    [`parent:${parent}`]: 1,
    [`parent:${parent}:status:${topic.status}`]: 1,
  };
}
