import { forbidden, invalidParams, userNotFound } from '../../errors/app-error.ts';
import { type Caller, canSeeAllFeeds, isOwner, isSpaceMember } from '../auth/index.ts';
import { findActiveMembershipSpaceIds, findMembership, findSpaceById } from '../spaces/index.ts';
import { findUserIdByUsername } from '../users/index.ts';
import { spaceNotFound } from './feed-errors.ts';
import {
  allOf,
  authorIs,
  countersBySpace,
  spaceIs,
  statusIs,
  sumOf,
  visibleIn,
  visibleListing,
  visibleMemberSpaces,
} from './feed-filters.ts';
import { noRead, pairRead, readTogether } from '../../db/read-together.ts';
import { type FeedResponse, feedContextRead, toFeedResponse } from './feed-mapper.ts';
import {
  type Counters,
  findFeedStats,
  findSpacePostCount,
  findLikedPostIds,
  likedPostsRead,
  findUserStats,
  type ListingPage,
  postsOfListings,
  queryAuthorFeedPage,
  querySpaceFeedPage,
  queryTimelinePage,
} from './feed-repository.ts';
import type { FeedStatus, PostItem } from './post-item.ts';
import { listTopicFeeds } from './list-topic-feeds.ts';
import { findFeedStatusTotals, queryUnpublishedFeedPage } from './status-list-repository.ts';

/** The query of `GET /feeds` as the contract delivers it (defaults applied there). */
export interface ListFeedsInput {
  readonly page: number;
  readonly per_page: number;
  readonly topics?: readonly number[] | undefined;
  readonly space_id?: number | undefined;
  readonly username?: string | undefined;
  readonly status: FeedStatus;
}

/** Paginator C. */
export interface FeedList {
  current_page: number;
  data: FeedResponse[];
  total: number;
  per_page: number;
}

/** A page of posts and the exact number of feeds the caller may page through. */
export interface PostPage {
  readonly posts: PostItem[];
  readonly total: number;
}

/** A page of listing entries (whose posts are read next) and the exact total. */
interface ListedPage {
  readonly listed: ListingPage;
  readonly total: number;
  /**
   * The caller's likes are looked up after the posts, for the posts somebody likes only (a post nobody likes is not
   * the caller's like): for the list every member reads, so its newest posts' partitions take one read per view.
   */
  readonly likesOfLikedOnly?: boolean;
}

/**
 * `GET /feeds` (decisions.md "Topics and feeds"): the feeds the caller may see, newest first, paginator C. Every
 * total is a sum of maintained counters chosen by the same visibility the page applies (feed-aggregates.ts), and
 * every page is a key-condition Query whose FilterExpression skips only what the caller may not see, so page 1
 * costs the same at any size:
 *
 * - no filter: the timeline; `public` + the `members:<sid>` of the caller's members-only spaces;
 * - `space_id`: the space's feeds (`posts_count`); a space the caller may not see answers like an unknown one;
 * - `username`: the author's feeds; `feeds_published_public` + `feeds_published_members:<sid>` of the caller's
 *   spaces (all of them for the author and community moderators); with `space_id`: `feeds_published_space:<sid>`;
 * - `topics`: see list-topic-feeds.ts (with `space_id` too; not with `username`, which no counter serves);
 * - `status` other than `published` (decisions.md: "only for the author's own feeds or for moderators"): for a
 *   community moderator without `username`, every member's feeds in that status (the status list's shards,
 *   counted by the site's `feedStatusStats`); otherwise the feeds of `username` (default the caller) in that
 *   status, for the author and community moderators only (else 403), counted by `feeds_status:<s>`; not with
 *   `topics` or `space_id`.
 *
 * Community moderators (and admins) see every space's feeds.
 */
export async function listFeeds(caller: Caller, input: ListFeedsInput): Promise<{ feeds: FeedList }> {
  const page = await findPage(caller, input);
  let data: FeedResponse[];
  if ('listed' in page) {
    // The posts of a listing page, the caller's likes, the authors and the topics all follow from the entries'
    // ids: one round of independent reads, the others' posts, authors, topics (and likes) in one BatchGetItem
    // beside the caller's own posts (the likes after the posts for the timeline, see ListedPage).
    const { listings } = page.listed;
    const deferLikes = page.likesOfLikedOnly === true;
    const contextRead = feedContextRead(
      listings.map((listing) => listing.user_id),
      listings.flatMap((listing) => listing.topic_ids),
    );
    const likes = deferLikes
      ? noRead(undefined)
      : likedPostsRead(
          listings.map((listing) => listing.post_id),
          caller.id,
        );
    const {
      posts,
      alongside: [context, likedAlongside],
    } = await postsOfListings(page.listed, caller.id, pairRead(contextRead, likes));
    const liked =
      likedAlongside ??
      (await findLikedPostIds(
        posts.filter((post) => post.reactions_count > 0).map((post) => post.id),
        caller.id,
      ));
    data = posts.map((post) => toFeedResponse(post, { ...context, liked }));
  } else {
    // The caller's likes, the authors and the topics of a page of posts: one BatchGetItem.
    const [liked, context] = await readTogether([
      likedPostsRead(
        page.posts.map((post) => post.id),
        caller.id,
      ),
      feedContextRead(
        page.posts.map((post) => post.user_id),
        page.posts.flatMap((post) => post.topic_ids),
      ),
    ] as const);
    data = page.posts.map((post) => toFeedResponse(post, { ...context, liked }));
  }
  const total = page.total;
  return { feeds: { current_page: input.page, data, total, per_page: input.per_page } };
}

const listed = (listings: ListingPage['listings'], total: number, status: FeedStatus = 'published') => ({
  listed: { listings, status },
  total,
});

async function findPage(caller: Caller, input: ListFeedsInput): Promise<PostPage | ListedPage> {
  const paging = { page: input.page, perPage: input.per_page };
  const authorId = input.username === undefined ? undefined : await resolveUsername(input.username);

  if (input.status !== 'published') {
    if (input.topics !== undefined || input.space_id !== undefined) {
      throw invalidParams({ status: 'only published feeds can be filtered by topics or space_id' });
    }
    if (authorId === undefined && canSeeAllFeeds(caller)) {
      const total = (await findFeedStatusTotals())[input.status] ?? 0;
      return listed(await queryUnpublishedFeedPage(input.status, { ...paging, total }), total, input.status);
    }
    const author = authorId ?? caller.id;
    if (!isOwner(caller, author) && !canSeeAllFeeds(caller)) {
      throw forbidden("Sorry, you are not allowed to see another member's unpublished feeds.");
    }
    const total = (await findUserStats(author))[`feeds_status:${input.status}`] ?? 0;
    const found = await queryAuthorFeedPage(author, { ...paging, total, filter: statusIs(input.status) });
    return listed(found, total, input.status);
  }
  if (input.topics !== undefined && authorId !== undefined) {
    throw invalidParams({ topics: 'cannot be combined with username' });
  }

  if (input.space_id !== undefined) {
    const spaceId = input.space_id;
    const [space, membership] = await Promise.all([
      findSpaceById(spaceId),
      findMembership(spaceId, caller.id),
    ]);
    if (space?.type !== 'community') throw spaceNotFound();
    if (space.privacy !== 'public' && !isSpaceMember(caller, membership)) throw spaceNotFound();
    if (input.topics !== undefined) return listTopicFeeds(caller, input.topics, paging, { spaceId });
    if (authorId !== undefined) return authorFeedsInSpace(authorId, spaceId, paging);
    const total = await findSpacePostCount(spaceId);
    return listed(await querySpaceFeedPage(spaceId, { ...paging, total }), total);
  }

  if (input.topics !== undefined) return listTopicFeeds(caller, input.topics, paging, {});
  if (authorId !== undefined) return authorFeeds(caller, authorId, paging);
  return timeline(caller, paging);
}

async function resolveUsername(username: string): Promise<number> {
  const userId = await findUserIdByUsername(username);
  if (userId === undefined) throw userNotFound();
  return userId;
}

type Paging = { readonly page: number; readonly perPage: number };

/** The caller's members-only spaces among those counted, and the total they add. */
async function memberScope(caller: Caller, counted: ReadonlyMap<number, number>) {
  if (counted.size === 0) return { spaceIds: [] as number[], total: 0 };
  const memberships = new Set(await findActiveMembershipSpaceIds(caller.id));
  const spaceIds = visibleMemberSpaces(counted, memberships);
  return { spaceIds, total: sumOf(counted, spaceIds) };
}

/**
 * The timeline: its totals, the caller's memberships and the timeline's shards are read together (one round); the
 * visibility the first two decide applies to the entries the third read (reading on where it dropped some). Then
 * the posts (a second round) and the caller's likes of the liked ones (a third).
 */
async function timeline(caller: Caller, paging: Paging): Promise<ListedPage> {
  const seesAll = canSeeAllFeeds(caller);
  const scope = Promise.all([
    findFeedStats(),
    seesAll ? Promise.resolve([] as number[]) : findActiveMembershipSpaceIds(caller.id),
  ]).then(([stats, memberships]) => {
    const members = countersBySpace(stats, 'members:');
    const everyone = stats.public ?? 0;
    if (seesAll) return { total: everyone + sumOf(members), visible: undefined };
    const spaceIds = visibleMemberSpaces(members, new Set(memberships));
    return { total: everyone + sumOf(members, spaceIds), visible: visibleListing(spaceIds) };
  });
  const offset = (paging.page - 1) * paging.perPage;
  if (offset > 0 && offset >= (await scope).total) {
    // A later page waits for the total first (one more round), so a page past the end reads no shard.
    return { ...listed([], (await scope).total), likesOfLikedOnly: true };
  }
  const [{ total }, listings] = await Promise.all([
    scope,
    queryTimelinePage({ ...paging, visible: async () => (await scope).visible }),
  ]);
  return { ...listed(offset >= total ? [] : listings, total), likesOfLikedOnly: true };
}

async function authorFeeds(caller: Caller, authorId: number, paging: Paging): Promise<ListedPage> {
  const stats = await findUserStats(authorId);
  if (isOwner(caller, authorId) || canSeeAllFeeds(caller)) {
    const total = stats.feeds_published ?? 0;
    const found = await queryAuthorFeedPage(authorId, { ...paging, total, filter: statusIs('published') });
    return listed(found, total);
  }
  const scope = await memberScope(caller, countersBySpace(stats, 'feeds_published_members:'));
  const total = (stats.feeds_published_public ?? 0) + scope.total;
  const filter = allOf(statusIs('published'), visibleIn(scope.spaceIds));
  return listed(await queryAuthorFeedPage(authorId, { ...paging, total, filter }), total);
}

/**
 * One author's feeds in one space (the caller may see the space): counted by `feeds_published_space:<sid>`, read
 * from whichever of the two partitions is smaller (the author's feeds or the space's), filtered to the other.
 */
async function authorFeedsInSpace(authorId: number, spaceId: number, paging: Paging): Promise<ListedPage> {
  const [stats, spaceSize] = await Promise.all([findUserStats(authorId), findSpacePostCount(spaceId)]);
  const total = stats[`feeds_published_space:${spaceId}`] ?? 0;
  const authorSize = authoredFeeds(stats);
  const found =
    authorSize <= spaceSize
      ? await queryAuthorFeedPage(authorId, {
          ...paging,
          total,
          filter: allOf(statusIs('published'), spaceIs(spaceId)),
        })
      : await querySpaceFeedPage(spaceId, { ...paging, total, filter: authorIs(authorId) });
  return listed(found, total);
}

/** Every feed of an author in any status (the size of the author's partition). */
const authoredFeeds = (stats: Counters): number =>
  (stats.feeds_published ?? 0) +
  Object.entries(stats)
    .filter(([name]) => name.startsWith('feeds_status:'))
    .reduce((sum, [, count]) => sum + count, 0);
