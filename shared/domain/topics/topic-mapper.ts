import { toSqlDateTime } from '../dates.ts';
import type { TopicItem, TopicStatus } from './topic-item.ts';

/** The contract's Topic. Only these fields leave; `title_lc`, keys and index attributes never do. */
export interface TopicResponse {
  id: number;
  title: string;
  slug: string;
  description: string;
  color: string;
  icon: string;
  parent_id: number | null;
  posts_count: number;
  status: TopicStatus;
  serial: number;
  created_at: string;
  updated_at: string;
}

export function toTopicResponse(item: TopicItem): TopicResponse {
  return {
    id: item.id,
    title: item.title,
    slug: item.slug,
    description: item.description,
    color: item.color,
    icon: item.icon,
    parent_id: item.parent_id,
    posts_count: item.posts_count,
    status: item.status,
    serial: item.serial,
    created_at: toSqlDateTime(item.created_at),
    updated_at: toSqlDateTime(item.updated_at),
  };
}

/** `PUT /admin/topics/{id}` answers these fields of the updated topic (contract). */
export function toTopicUpdateResponse(item: TopicItem) {
  const { id, title, slug, description, color, icon, status, updated_at } = toTopicResponse(item);
  return { id, title, slug, description, color, icon, status, updated_at };
}
