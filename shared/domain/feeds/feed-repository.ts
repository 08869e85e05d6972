import * as v from 'valibot';
import {
  authorPosts,
  feedStats,
  postReactionKey,
  postReactions,
  postTimelineShards,
  spacePosts,
  topicFeedStatsKey,
} from '../../db/keys/feeds.ts';
import { spacePostCounts } from '../../db/keys/spaces.ts';
import { userStatsKey } from '../../db/keys/users.ts';
import type { Partition } from '../../db/partition.ts';
import { readShardedTotals, shardedTotalsRead } from '../../db/sharded-counters.ts';
import { MAX_SKIPPED_ITEMS, type PageResult, queryPage } from '../../db/query-page.ts';
import { type KeepRule, querySpreadWindow } from '../../db/spread-page.ts';
import { invalidParams } from '../../errors/app-error.ts';
import { batchGetItems, getItem, type QueryFilter, queryItems } from '../../db/reads.ts';
import {
  type KeyedRead,
  itemRead,
  itemsRead,
  mapRead,
  noRead,
  readTogether,
} from '../../db/read-together.ts';
import {
  deleteAction,
  type TransactAction,
  type TransactOutcome,
  transactWrite,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';
import { type FeedStatus, type PostItem, type PostListing, PostListingSchema } from './post-item.ts';
import { findPostsByIds, postsByIdsRead } from './post-lookups.ts';
import { ReactionItemSchema } from './reaction-item.ts';

/**
 * Feeds, their topic links, reactions and aggregates: one function per access pattern (ACCESS_PATTERNS.md,
 * "Topics on feeds, feed reads, comments, reactions"). A feed write is built by feed-writes.ts and sent here in one
 * TransactWriteItems, so a feed and every counter that counts it change together. Posts by id (what other domains
 * read) are in post-lookups.ts.
 */

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

/**
 * The timeline totals (`public`, `members:<sid>`), summed over their shards in one BatchGetItem. Consistent, so a
 * total reflects every feed write completed before the read (as the page does).
 */
export async function findFeedStats(): Promise<Counters> {
  const [totals] = await readShardedTotals([feedStats()], { consistent: true });
  return totals ?? {};
}

/** A space's `posts_count` (published feeds), summed over its shards, consistent like the page it totals. */
export const spacePostCountRead = (spaceId: number): KeyedRead<number> =>
  mapRead(
    shardedTotalsRead(spacePostCounts(spaceId), { consistent: true }),
    (totals) => totals.posts_count ?? 0,
  );

export const findSpacePostCount = async (spaceId: number): Promise<number> => {
  const [count] = await readTogether([spacePostCountRead(spaceId)] as const);
  return count;
};

/** A user's stats item (feed and comment counters among others). */
export async function findUserStats(userId: number): Promise<Counters> {
  return (await getItem(userStatsKey(userId), CountersSchema)) ?? {};
}

/** `findUserStats` as a read to send with others in one BatchGetItem. */
export const userStatsRead = (userId: number) =>
  mapRead(itemRead(userStatsKey(userId), CountersSchema), (stats): Counters => stats ?? {});

/**
 * The topic feed counters of several topics in one BatchGetItem, merged by name: a counter of a feed carrying
 * several of these topics sits on each of their items with the same name and value, so it is counted once.
 */
export const topicFeedCountersRead = (topicIds: readonly number[]): KeyedRead<Counters> =>
  mapRead(
    itemsRead(topicIds.map(topicFeedStatsKey), CountersSchema),
    (items): Counters => Object.assign({}, ...items),
  );

// ---- Lists ----------------------------------------------------------------------------------------------------

export interface FeedPageQuery {
  readonly page: number;
  readonly perPage: number;
  /** From the maintained aggregate: a page past it reads nothing. */
  readonly total?: number | undefined;
  readonly filter?: FeedFilter | undefined;
  /** See `PageQuery.readAhead` (shared/db/query-page.ts). */
  readonly readAhead?: number | undefined;
}

export type FeedFilter = QueryFilter;

/**
 * A list page is read in two steps: the listing entries (small items, so the hot list partitions serve a page for a
 * fraction of the posts' size), then the posts themselves from their own partitions (`postsOfListings`), in the
 * entries' order. A post whose state as read no longer matches the list (unpublished or deleted since its entry was
 * indexed) is left out.
 */
export interface ListingPage {
  readonly listings: PostListing[];
  /** The status every post of the list has (the list's own, or the filter's). */
  readonly status: FeedStatus;
}

/**
 * The posts of a listing page, in its order (a post whose state no longer matches the list is left out). On a list
 * of published feeds (those every member reads), the reader's own posts are read strongly consistent and the others
 * eventually consistent, like the index that listed them (ACCESS_PATTERNS.md, "What each feed read guarantees"):
 * two BatchGetItems side by side, one when the page is all of one kind. Unpublished lists (the author's, the
 * moderators') are read strongly consistent.
 */
export async function postsOfListings<T = undefined>(
  page: ListingPage,
  readerId: number,
  alongside?: KeyedRead<T>,
): Promise<{ posts: PostItem[]; alongside: T }> {
  const exactFor = (listing: PostListing) => page.status !== 'published' || listing.user_id === readerId;
  const ids = (exact: boolean) =>
    page.listings.filter((listing) => exactFor(listing) === exact).map((listing) => listing.post_id);
  // The others' posts (eventually consistent) share one BatchGetItem with `alongside`; the exact ones cannot (a
  // consistent batch reads everything at twice the units).
  const [exact, [eventual, extra]] = await Promise.all([
    findPostsByIds(ids(true), { consistent: true }),
    readTogether([postsByIdsRead(ids(false)), alongside ?? noRead(undefined as T)] as const),
  ]);
  const posts = new Map([...eventual, ...exact]);
  return {
    posts: page.listings.flatMap((listing) => {
      const post = posts.get(listing.post_id);
      return post && post.status === page.status ? [post] : [];
    }),
    alongside: extra,
  };
}

const listingPage = (partition: Partition, query: FeedPageQuery): Promise<PageResult<PostListing>> =>
  queryPage({
    partition,
    schema: PostListingSchema,
    ascending: false,
    page: query.page,
    perPage: query.perPage,
    total: query.total,
    filter: query.filter,
    readAhead: query.readAhead,
  });

export interface TimelinePageQuery {
  readonly page: number;
  readonly perPage: number;
  /**
   * The feeds the caller may see (asked for beside the first reads), in memory and as the FilterExpression of any
   * read after the first; answering undefined shows every feed.
   */
  readonly visible: () => Promise<KeepRule<PostListing> | undefined>;
}

/**
 * Every published feed, newest first: the timeline's shards (G3 `FEEDS#<n>` on the listings), each read for about
 * its share of the first (offset + per_page) entries the caller may see, in parallel, merged by sort key and read
 * further only where the merge needs it, in at most one more round most often (shared/db/spread-page.ts). Page 1
 * reads ten small entries per shard; a page N reads about N pages' worth (GET /feeds has no cursor), bounded like
 * queryPage's skip. Answers the page and the serial rounds its reads took.
 */
export async function queryTimelinePage(
  query: TimelinePageQuery,
): Promise<{ listings: PostListing[]; rounds: number }> {
  const offset = (query.page - 1) * query.perPage;
  const window = offset + query.perPage;
  if (window > MAX_SKIPPED_ITEMS) {
    throw invalidParams({ page: `is too deep for the timeline (at most ${MAX_SKIPPED_ITEMS} feeds in)` });
  }
  const { items, rounds } = await querySpreadWindow({
    sources: postTimelineShards(),
    schema: PostListingSchema,
    window,
    keep: query.visible,
  });
  return { listings: items.slice(offset, window), rounds };
}

/** The published feeds of one space, newest first (G2 on the listings). */
export const querySpaceFeedPage = async (spaceId: number, query: FeedPageQuery) =>
  (await listingPage(spacePosts(spaceId), query)).items;

/** The feeds of one author in any status, newest first (G1 on the listings); the filter narrows status and visibility. */
export const queryAuthorFeedPage = async (userId: number, query: FeedPageQuery) =>
  (await listingPage(authorPosts(userId), query)).items;

/** Which of these posts the user has liked (one BatchGetItem of their reaction keys). */
export async function findLikedPostIds(postIds: readonly number[], userId: number): Promise<Set<number>> {
  if (postIds.length === 0) return new Set();
  const reactions = await batchGetItems(
    postIds.map((postId) => postReactionKey(postId, userId)),
    ReactionItemSchema,
  );
  return new Set(reactions.map((reaction) => reaction.object_id));
}

/** `findLikedPostIds` as a read to send with others in one BatchGetItem. */
export const likedPostsRead = (postIds: readonly number[], userId: number) =>
  mapRead(
    itemsRead(
      postIds.map((postId) => postReactionKey(postId, userId)),
      ReactionItemSchema,
    ),
    (reactions) => new Set(reactions.map((reaction) => reaction.object_id)),
  );

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
