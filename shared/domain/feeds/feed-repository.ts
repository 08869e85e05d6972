import * as v from 'valibot';
import {
  authorPosts,
  feedStatsKey,
  postKey,
  postReactionKey,
  postReactions,
  postTimeline,
  spacePosts,
  topicFeedStatsKey,
  topicPosts,
} from '../../db/keys/feeds.ts';
import { userStatsKey } from '../../db/keys/users.ts';
import type { Partition } from '../../db/partition.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { batchGetItems, getItem, queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  type TransactAction,
  type TransactOutcome,
  transactWrite,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';
import { type PostItem, PostItemSchema, type PostTopicLink, PostTopicLinkSchema } from './post-item.ts';
import { ReactionItemSchema } from './reaction-item.ts';

/**
 * Feeds, their topic links, reactions and aggregates: one function per access pattern (ACCESS_PATTERNS.md,
 * "Topics on feeds, feed reads, comments, reactions"). A feed write is built by feed-writes.ts and sent here in one
 * TransactWriteItems, so a feed and every counter that counts it change together.
 */

export function findPostById(postId: number, options: { consistent?: boolean } = {}) {
  return getItem(postKey(postId), PostItemSchema, options);
}

/** Many posts by id (BatchGetItem); unknown ids are absent. */
export async function findPostsByIds(postIds: readonly number[]): Promise<Map<number, PostItem>> {
  if (postIds.length === 0) return new Map();
  const posts = await batchGetItems([...new Set(postIds)].map(postKey), PostItemSchema);
  return new Map(posts.map((post) => [post.id, post]));
}

// ---- Aggregates -----------------------------------------------------------------------------------------------

/** A stats item's numeric attributes (counters), whatever their names; empty when the item does not exist. */
const CountersSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform((raw) =>
    Object.fromEntries(
      Object.entries(raw).flatMap(([name, value]) => (typeof value === 'number' ? [[name, value]] : [])),
    ),
  ),
);
export type Counters = Readonly<Record<string, number>>;

/** The timeline totals (`public`, `members:<sid>`). */
export async function findFeedStats(): Promise<Counters> {
  return (await getItem(feedStatsKey(), CountersSchema)) ?? {};
}

/** A user's stats item (feed and comment counters among others). */
export async function findUserStats(userId: number): Promise<Counters> {
  return (await getItem(userStatsKey(userId), CountersSchema)) ?? {};
}

/**
 * The topic feed counters of several topics in one BatchGetItem, merged by name: a counter of a feed carrying
 * several of these topics sits on each of their items with the same name and value, so it is counted once.
 */
export async function findTopicFeedCounters(topicIds: readonly number[]): Promise<Counters> {
  if (topicIds.length === 0) return {};
  const items = await batchGetItems(topicIds.map(topicFeedStatsKey), CountersSchema);
  return Object.assign({}, ...items);
}

// ---- Lists ----------------------------------------------------------------------------------------------------

export interface FeedPageQuery {
  readonly page: number;
  readonly perPage: number;
  /** From the maintained aggregate: a page past it reads nothing. */
  readonly total?: number | undefined;
  readonly filter?: FeedFilter | undefined;
}

export interface FeedFilter {
  readonly expression: string;
  readonly names?: Record<string, string>;
  readonly values?: Record<string, unknown>;
}

const postPage = (partition: Partition, query: FeedPageQuery): Promise<PageResult<PostItem>> =>
  queryPage({
    partition,
    schema: PostItemSchema,
    ascending: false,
    page: query.page,
    perPage: query.perPage,
    total: query.total,
    filter: query.filter,
  });

/** Every published feed, newest first (the sparse timeline on G3). */
export const queryTimelinePage = (query: FeedPageQuery) => postPage(postTimeline(), query);

/** The published feeds of one space, newest first (G2). */
export const querySpaceFeedPage = (spaceId: number, query: FeedPageQuery) =>
  postPage(spacePosts(spaceId), query);

/** The feeds of one author in any status, newest first (G1); the filter narrows status and visibility. */
export const queryAuthorFeedPage = (userId: number, query: FeedPageQuery) =>
  postPage(authorPosts(userId), query);

/** The links of the published feeds carrying one topic, newest first (G3 on the link items). */
export const queryTopicFeedLinkPage = (
  topicId: number,
  query: FeedPageQuery,
): Promise<PageResult<PostTopicLink>> =>
  queryPage({
    partition: topicPosts(topicId),
    schema: PostTopicLinkSchema,
    ascending: false,
    page: query.page,
    perPage: query.perPage,
    total: query.total,
    filter: query.filter,
  });

/** Which of these posts the user has liked (one BatchGetItem of their reaction keys). */
export async function findLikedPostIds(postIds: readonly number[], userId: number): Promise<Set<number>> {
  if (postIds.length === 0) return new Set();
  const reactions = await batchGetItems(
    postIds.map((postId) => postReactionKey(postId, userId)),
    ReactionItemSchema,
  );
  return new Set(reactions.map((reaction) => reaction.object_id));
}

/** Sends a feed write; answers which actions' conditions failed when it was cancelled (nothing written). */
export function writeFeedActions(actions: readonly TransactAction[]): Promise<TransactOutcome> {
  return transactWriteIfConditionsHold(actions);
}

// ---- Reactions on feeds -----------------------------------------------------------------------------------------

/** Up to `limit` reactions of a post, read consistently from the post's partition (sweeps after a delete). */
export const findPostReactionBatch = (postId: number, limit: number) =>
  queryItems(postReactions(postId), ReactionItemSchema, { consistent: true, limit });

/** Deletes reaction items whose object is gone (no counter to move), at most 100 per transaction. */
export async function deleteReactionItems(keys: readonly { pk: string; sk: string }[]): Promise<void> {
  for (let start = 0; start < keys.length; start += 100) {
    await transactWrite(keys.slice(start, start + 100).map((key) => deleteAction(key)));
  }
}
