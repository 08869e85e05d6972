import {
  postByAuthorIndex,
  postBySpaceIndex,
  postByTopicIndex,
  postKey,
  postTimelineIndex,
  postTopicKey,
} from '../../db/keys.ts';

/** Size rules (decisions.md "Sizes"). */
export const FEED_TITLE_MAX_LENGTH = 192;
export const FEED_MESSAGE_MAX_LENGTH = 15_000;

export const FEED_STATUSES = ['published', 'draft', 'pending', 'scheduled'] as const;
export type FeedStatus = (typeof FEED_STATUSES)[number];
/** `text` for feeds written by members, `course_lesson` for the lessons of a course (lessons are posts). */
export const POST_TYPES = ['text', 'course_lesson'] as const;
export type PostType = (typeof POST_TYPES)[number];

/**
 * A feed or a lesson as stored (`POST#<id>` / `POST`). `topic_ids` is denormalised here so a feed read needs no
 * query of its links; counters are maintained by the writes that change them.
 */
export interface PostItem {
  id: number;
  user_id: number;
  /** null: the global feed (no space). Lessons: the course id. */
  space_id: number | null;
  space_visibility: 'public' | 'members';
  title: string;
  slug: string;
  message: string;
  message_rendered: string;
  type: PostType;
  status: FeedStatus;
  topic_ids: number[];
  comments_count: number;
  reactions_count: number;
  media: { type: string; url: string }[];
  created_at: string;
  updated_at: string;
  /** Lessons only. */
  course_id?: number;
  position?: number;
}

/**
 * G1 (author) always; G2 (space) and G3 (timeline) only while published, so drafts never list. Lessons are not
 * feeds: they live in the course's lesson order rows and never enter the space or timeline lists.
 */
export function storedPost(post: PostItem) {
  const listed = post.status === 'published' && post.type !== 'course_lesson';
  return {
    ...postKey(post.id),
    entity: post.type === 'course_lesson' ? 'lesson' : 'post',
    ...post,
    ...postByAuthorIndex(post.user_id, post.created_at, post.id),
    ...(listed ? postBySpaceIndex(post.space_id, post.created_at, post.id) : {}),
    ...(listed ? postTimelineIndex(post.created_at, post.id) : {}),
  };
}

/** The feed ↔ topic link; its G3 entry (feeds of a topic) exists only while the feed is published. */
export function storedPostTopicLink(post: PostItem, topicId: number) {
  return {
    ...postTopicKey(post.id, topicId),
    entity: 'post_topic',
    post_id: post.id,
    topic_id: topicId,
    space_id: post.space_id,
    space_visibility: post.space_visibility,
    created_at: post.created_at,
    ...(post.status === 'published' ? postByTopicIndex(topicId, post.created_at, post.id) : {}),
  };
}
