import * as v from 'valibot';
import { indexEntry } from '../../db/partition.ts';
import {
  authorPosts,
  postKey,
  postListingKey,
  postTimelineOf,
  postTopicKey,
  spacePosts,
  topicPosts,
  topicUnlistedPosts,
  unpublishedPostsOf,
} from '../../db/keys/feeds.ts';
import { timeSort } from '../../db/keys/sort.ts';
import { FEED_STATUSES, POST_TYPES } from '../../vocabulary/feeds.ts';
import { FEED_VISIBILITIES } from '../../vocabulary/spaces.ts';

export type { FeedStatus, PostType } from '../../vocabulary/feeds.ts';

const integer = v.pipe(v.number(), v.integer());

/**
 * A feed or a lesson as stored (`POST#<id>` / `POST`). `topic_ids` is denormalised here so a feed read needs no
 * query of its links; counters are maintained by the writes that change them.
 */
export const PostItemSchema = v.object({
  id: integer,
  user_id: integer,
  /** null: the global feed (no space). Lessons: the course id. */
  space_id: v.nullable(integer),
  space_visibility: v.picklist(FEED_VISIBILITIES),
  title: v.string(),
  slug: v.string(),
  message: v.string(),
  message_rendered: v.string(),
  type: v.picklist(POST_TYPES),
  status: v.picklist(FEED_STATUSES),
  /**
   * Stored as a number set (absent when empty) so a topic is detached with `DELETE topic_ids :id`, without reading
   * the post; parsed back into a sorted list.
   */
  topic_ids: v.pipe(
    v.optional(v.union([v.array(integer), v.set(integer)]), []),
    v.transform((ids) => [...ids].sort((a, b) => a - b)),
  ),
  /**
   * The topics this feed is counted under in the topic feed totals (`topicFeedStatsKey`), as sorted ids joined by
   * `.`: written by `storedPost` from `topic_ids` while the feed is published. A topic delete removes the id from
   * `topic_ids` but not from here, so a later update or delete takes back exactly what was counted.
   */
  topic_signature: v.optional(v.string()),
  comments_count: integer,
  reactions_count: integer,
  media: v.array(v.object({ type: v.string(), url: v.string() })),
  created_at: v.string(),
  updated_at: v.string(),
  /** Lessons only. */
  course_id: v.optional(integer),
  position: v.optional(integer),
});
export type PostItem = v.InferOutput<typeof PostItemSchema>;

/**
 * The post item carries no index keys: its listing entry (`storedPostListing`) does, so the counters that comments
 * and likes move (`comments_count`, `reactions_count`) live on an item no list indexes. Writers put both items
 * (`storedPostItems`) in one transaction or batch.
 */
export function storedPost(post: PostItem) {
  const listed = isListedFeed(post);
  const { topic_ids: topicIds, topic_signature: _counted, ...attributes } = post;
  const signature = listed ? topicSignature(topicIds) : undefined;
  return {
    ...postKey(post.id),
    entity: post.type === 'course_lesson' ? 'lesson' : 'post',
    ...attributes,
    ...(topicIds.length > 0 ? { topic_ids: new Set(topicIds) } : {}),
    ...(signature ? { topic_signature: signature } : {}),
  };
}

/**
 * The listing entry: listed by author always; by its space (a global feed has none) and on its timeline shard only
 * while published, so drafts never list. Lessons are not feeds: they live in the course's lesson order rows and never enter the space or
 * timeline lists. It holds only what the lists' filters read (status, space and visibility, author) and the ids a
 * page's other reads need (author, topics: read beside the posts, in one round), so an index page is a fraction of
 * the posts' size. It changes only when one of these does (a status or topic change). `topic_ids` may keep a topic
 * a topic delete detached from the post meanwhile: the page shows only the post's own, existing topics.
 */
export function storedPostListing(post: PostItem) {
  const listed = isListedFeed(post);
  const sort = timeSort(post.created_at, post.id);
  return {
    ...postListingKey(post.id),
    entity: 'post_listing',
    post_id: post.id,
    user_id: post.user_id,
    space_id: post.space_id,
    space_visibility: post.space_visibility,
    status: post.status,
    created_at: post.created_at,
    topic_ids: [...post.topic_ids],
    ...indexEntry(authorPosts(post.user_id), sort),
    ...(listed && post.space_id !== null ? indexEntry(spacePosts(post.space_id), sort) : {}),
    ...(listed ? indexEntry(postTimelineOf(post.id), sort) : {}),
    // While unpublished (not a lesson), on its status's list instead of the timeline: moderators' `?status=`.
    ...(isUnpublishedFeed(post) ? indexEntry(unpublishedPostsOf(post.id, post.status), sort) : {}),
  };
}

/** Both stored items of a post, for bulk writers (import, migration, benchmarks). */
export const storedPostItems = (post: PostItem) => [storedPost(post), storedPostListing(post)];

/** A listing entry as read from a list. */
export const PostListingSchema = v.object({
  post_id: integer,
  user_id: integer,
  // What the timeline's visibility check reads (every entry carries both).
  space_id: v.optional(v.nullable(integer), null),
  space_visibility: v.optional(v.picklist(FEED_VISIBILITIES), 'members'),
  topic_ids: v.optional(v.array(integer), []),
  status: v.picklist(FEED_STATUSES),
  created_at: v.string(),
});
export type PostListing = v.InferOutput<typeof PostListingSchema>;

/** A published feed (not a lesson): listed by space and on the timeline, and counted in every feed total. */
export const isListedFeed = (post: Pick<PostItem, 'status' | 'type'>): boolean =>
  post.status === 'published' && post.type !== 'course_lesson';

/** A feed (not a lesson) in a status other than published: listed and counted by its status site-wide. */
export const isUnpublishedFeed = (post: Pick<PostItem, 'status' | 'type'>): boolean =>
  post.status !== 'published' && post.type !== 'course_lesson';

/** Sorted, deduplicated ids joined by `.`; undefined for none. */
export function topicSignature(topicIds: readonly number[]): string | undefined {
  const ids = [...new Set(topicIds)].sort((a, b) => a - b);
  return ids.length > 0 ? ids.join('.') : undefined;
}

/**
 * The feed ↔ topic link. It lists the feed under the topic's published feeds while the feed is published, under
 * its unlisted feeds otherwise, so `GET /feeds?topics=` reads only published ones and deleting a topic finds all.
 */
export function storedPostTopicLink(post: PostItem, topicId: number) {
  return {
    ...postTopicKey(post.id, topicId),
    entity: 'post_topic',
    post_id: post.id,
    topic_id: topicId,
    space_id: post.space_id,
    space_visibility: post.space_visibility,
    created_at: post.created_at,
    ...indexEntry(
      isListedFeed(post) ? topicPosts(topicId) : topicUnlistedPosts(topicId),
      timeSort(post.created_at, post.id),
    ),
  };
}

/** A feed ↔ topic link as read from a topic's list (`GET /feeds?topics=`). */
export const PostTopicLinkSchema = v.object({
  post_id: integer,
  topic_id: integer,
  space_id: v.nullable(integer),
  space_visibility: v.picklist(FEED_VISIBILITIES),
  created_at: v.string(),
});
export type PostTopicLink = v.InferOutput<typeof PostTopicLinkSchema>;
