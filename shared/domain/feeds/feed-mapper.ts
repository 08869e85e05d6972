import { toIsoDateTime } from '../dates.ts';
import { type KeyedRead, mapRead } from '../../db/read-together.ts';
import { type TopicItem, topicsByIdsRead } from '../topics/index.ts';
import { type UserItem, usersByIdsRead } from '../users/index.ts';
import type { FeedStatus, PostItem } from './post-item.ts';

/** The author summary feed items and comments carry (contract: `xprofile` with these four fields). */
export interface AuthorSummary {
  user_id: number;
  display_name: string;
  username: string;
  avatar: string;
}

/** A topic as shown on a feed: only topics that exist and are active (inactive ones are hidden from users). */
export interface FeedTopic {
  id: number;
  title: string;
  slug: string;
  color: string;
  icon: string;
}

/** The contract's feed item plus what clients need besides (space, update time, topics, caller's like, media). */
export interface FeedResponse {
  id: number;
  user_id: number;
  space_id: number | null;
  title: string;
  slug: string;
  message: string;
  message_rendered: string;
  type: 'text';
  status: FeedStatus;
  comments_count: number;
  reactions_count: number;
  created_at: string;
  updated_at: string;
  xprofile: AuthorSummary | null;
  topics: FeedTopic[];
  liked: boolean;
  media: { type: string; url: string }[];
}

export const toAuthorSummary = (user: UserItem | undefined): AuthorSummary | null =>
  user
    ? { user_id: user.id, display_name: user.display_name, username: user.username, avatar: user.avatar }
    : null;

export interface FeedContext {
  readonly authors: ReadonlyMap<number, UserItem>;
  readonly topics: ReadonlyMap<number, TopicItem>;
  readonly liked: ReadonlySet<number>;
}

export function toFeedResponse(post: PostItem, context: FeedContext): FeedResponse {
  return {
    id: post.id,
    user_id: post.user_id,
    space_id: post.space_id,
    title: post.title,
    slug: post.slug,
    message: post.message,
    message_rendered: post.message_rendered,
    type: 'text',
    status: post.status,
    comments_count: post.comments_count,
    reactions_count: post.reactions_count,
    created_at: toIsoDateTime(post.created_at),
    updated_at: toIsoDateTime(post.updated_at),
    xprofile: toAuthorSummary(context.authors.get(post.user_id)),
    topics: post.topic_ids.flatMap((id) => {
      const topic = context.topics.get(id);
      return topic && topic.status === 'active'
        ? [{ id: topic.id, title: topic.title, slug: topic.slug, color: topic.color, icon: topic.icon }]
        : [];
    }),
    liked: context.liked.has(post.id),
    media: post.media.map((item) => ({ type: item.type, url: item.url })),
  };
}

/**
 * The authors and topics a page of feeds shows, from their ids alone, as a read to send with others in one
 * BatchGetItem (shared/db/read-together.ts): a list reads them with its posts or its likes (their ids are on the
 * listing entries). Topic ids are resolved against the topics that exist now, so a deleted topic never shows even
 * before its links are all detached.
 */
export function feedContextRead(
  authorIds: readonly number[],
  topicIds: readonly number[],
): KeyedRead<Omit<FeedContext, 'liked'>> {
  const authors = usersByIdsRead(authorIds);
  const topics = mapRead(
    topicsByIdsRead([...new Set(topicIds)]),
    (found) => new Map(found.map((topic) => [topic.id, topic])),
  );
  return {
    keys: [...authors.keys, ...topics.keys],
    settle: async (found) => ({ authors: await authors.settle(found), topics: await topics.settle(found) }),
  };
}
