import { forbidden, invalidParams, userNotFound } from '../../errors/app-error.ts';
import { type Caller, canSeeAllFeeds, isOwner, isSpaceMember } from '../auth/index.ts';
import { findActiveMembershipSpaceIds, membershipRead, spaceRead } from '../spaces/index.ts';
import { findUserIdByUsername, userIdByUsernameRead } from '../users/index.ts';
import { spaceNotFound } from './feed-errors.ts';
import {
  allOf,
  authorIs,
  countersBySpace,
  MAX_FILTER_SPACES,
  spaceIs,
  statusIs,
  sumOf,
  visibleIn,
  visibleListing,
  visibleMemberSpaces,
} from './feed-filters.ts';
import { mapRead, noRead, pairRead, readTogether } from '../../db/read-together.ts';
import { type FeedResponse, feedContextRead, toFeedResponse } from './feed-mapper.ts';
import {
  type Counters,
  findFeedStats,
  findLikedPostIds,
  likedPostsRead,
  findUserStats,
  type ListingPage,
  postsOfListings,
  queryAuthorFeedPage,
  querySpaceFeedPage,
  queryTimelinePage,
  spacePostCountRead,
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
  /** The caller's likes of these posts. */
  readonly liked: Set<number>;
}

/** A page of listing entries (whose posts are read next) and the exact total. */
interface ListedPage {
  readonly listed: ListingPage;
  readonly total: number;
  /**
   * The caller's likes are looked up after the posts, for the posts somebody likes only (a post nobody likes is not
   * the caller's like): for the list every member reads, so its newest posts' partitions take one read per view.
   * Only when the page's entries took one round: after a read on, the likes are read beside the posts (three rounds).
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
    // The authors and the topics of a page of posts (its caller's likes were read beside the posts): one
    // BatchGetItem.
    const [context] = await readTogether([
      feedContextRead(
        page.posts.map((post) => post.user_id),
        page.posts.flatMap((post) => post.topic_ids),
      ),
    ] as const);
    data = page.posts.map((post) => toFeedResponse(post, { ...context, liked: page.liked }));
  }
  const total = page.total;
  return { feeds: { current_page: input.page, data, total, per_page: input.per_page } };
}

const listed = (listings: ListingPage['listings'], total: number, status: FeedStatus = 'published') => ({
  listed: { listings, status },
  total,
});

/**
 * A page read beside the total it is cut by (one round for both): a page that starts at or past the total is
 * answered empty, as when the total is read first; what the index listed there is not shown.
 */
const cutTo = (listings: ListingPage['listings'], total: number, paging: Paging) =>
  (paging.page - 1) * paging.perPage >= total ? [] : listings;

/**
 * How deep (offset + per_page) a page of a list read beside its total may be: deeper, the total is read first, so a
 * page past the end reads no index (and a deep page costs its reads anyway).
 */
const BESIDE_TOTAL_WINDOW = 500;
const readsBesideTotal = (paging: Paging) => paging.page * paging.perPage <= BESIDE_TOTAL_WINDOW;

/**
 * Every variant reads what it needs in at most three serial rounds (issue 20 item 6; ACCESS_PATTERNS.md "GET
 * /feeds…"): what depends on nothing (space, membership, counters, the username's guard, the caller's memberships,
 * often the page itself) in the first, read together; a check that fails drops what was read beside it.
 */
async function findPage(caller: Caller, input: ListFeedsInput): Promise<PostPage | ListedPage> {
  const paging = { page: input.page, perPage: input.per_page };
  if (input.status !== 'published') return unpublishedPage(caller, input, paging);
  if (input.topics !== undefined && input.username !== undefined) {
    // The username is checked first (404 before 400), as when it was resolved before anything else.
    await resolveUsername(input.username);
    throw invalidParams({ topics: 'cannot be combined with username' });
  }
  if (input.space_id !== undefined) return spacePage(caller, input.space_id, input, paging);
  if (input.topics !== undefined) return listTopicFeeds(caller, input.topics, paging, {});
  if (input.username !== undefined) return authorFeeds(caller, input.username, paging);
  return timeline(caller, paging);
}

async function resolveUsername(username: string): Promise<number> {
  return foundUser(await findUserIdByUsername(username));
}

function foundUser(userId: number | undefined): number {
  if (userId === undefined) throw userNotFound();
  return userId;
}

type Paging = { readonly page: number; readonly perPage: number };

/**
 * `?status=` other than published. A community moderator without `username`: the status totals beside the status
 * list's shards (one round). Otherwise the author's (`username`'s guard first when named): their stats beside their
 * partition filtered by status (one round).
 */
async function unpublishedPage(caller: Caller, input: ListFeedsInput, paging: Paging): Promise<ListedPage> {
  const authorId = input.username === undefined ? undefined : await resolveUsername(input.username);
  if (input.topics !== undefined || input.space_id !== undefined) {
    throw invalidParams({ status: 'only published feeds can be filtered by topics or space_id' });
  }
  const status = input.status;
  if (authorId === undefined && canSeeAllFeeds(caller)) {
    const totals = findFeedStatusTotals().then((found) => found[status] ?? 0);
    const [total, found] = readsBesideTotal(paging)
      ? await Promise.all([totals, queryUnpublishedFeedPage(status, paging)])
      : [await totals, undefined];
    const listings = found ?? (await queryUnpublishedFeedPage(status, { ...paging, total }));
    return listed(cutTo(listings, total, paging), total, status);
  }
  const author = authorId ?? caller.id;
  if (!isOwner(caller, author) && !canSeeAllFeeds(caller)) {
    throw forbidden("Sorry, you are not allowed to see another member's unpublished feeds.");
  }
  const [stats, found] = await Promise.all([
    findUserStats(author),
    queryAuthorFeedPage(author, { ...paging, filter: statusIs(status), readAhead: READ_AHEAD }),
  ]);
  const total = stats[`feeds_status:${status}`] ?? 0;
  return listed(cutTo(found, total, paging), total, status);
}

/**
 * `?space_id=` (with `topics` or `username`): the space, the caller's membership, the space's `posts_count` shards
 * (and the username's guard) in one BatchGetItem, beside the space's page when nothing else narrows it; a space the
 * caller may not see answers like an unknown one, whatever was read beside it.
 */
async function spacePage(
  caller: Caller,
  spaceId: number,
  input: ListFeedsInput,
  paging: Paging,
): Promise<PostPage | ListedPage> {
  // A community space the caller may see (a course, or a members-only space of others, is as unknown).
  const visibleSpace = mapRead(
    pairRead(spaceRead(spaceId), membershipRead(spaceId, caller.id)),
    ([space, membership]) =>
      space?.type === 'community' && (space.privacy === 'public' || isSpaceMember(caller, membership)),
  );
  if (input.topics !== undefined) {
    const first = mapRead(visibleSpace, (visible) => {
      if (!visible) throw spaceNotFound();
    });
    return listTopicFeeds(caller, input.topics, paging, { spaceId, first });
  }
  const plain = input.username === undefined && readsBesideTotal(paging);
  const [[visible, spaceSize, authorId], plainPage] = await Promise.all([
    readTogether([
      visibleSpace,
      spacePostCountRead(spaceId),
      input.username === undefined ? noRead(undefined) : userIdByUsernameRead(input.username),
    ] as const),
    plain ? querySpaceFeedPage(spaceId, paging) : undefined,
  ]);
  // An unknown username answers before the space, as when it was resolved first.
  const author = input.username === undefined ? undefined : foundUser(authorId);
  if (!visible) throw spaceNotFound();
  if (author !== undefined) return authorFeedsInSpace(author, spaceId, spaceSize, paging);
  const found = plainPage ?? (await querySpaceFeedPage(spaceId, { ...paging, total: spaceSize }));
  return listed(cutTo(found, spaceSize, paging), spaceSize);
}

/**
 * The timeline: its totals, the caller's memberships and the timeline's shards are read together (one round); the
 * visibility the first two decide applies to the entries the third read, and is the FilterExpression of the one
 * read on (a second round) where the merge needs it (feed-repository.ts `queryTimelinePage`). Then the posts, and
 * the caller's likes of the liked ones (after them when the shards took one round, beside them otherwise).
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
    const total = everyone + sumOf(members, spaceIds);
    const share = total / Math.max(everyone + sumOf(members), 1);
    return { total, visible: { keeps: visibleListing(spaceIds), filter: visibleIn(spaceIds), share } };
  });
  const offset = (paging.page - 1) * paging.perPage;
  if (!readsBesideTotal(paging) && offset >= (await scope).total) {
    // A deep page waits for the total first (one more round), so a page past the end reads no shard.
    return { ...listed([], (await scope).total), likesOfLikedOnly: true };
  }
  const [{ total }, page] = await Promise.all([
    scope,
    queryTimelinePage({ ...paging, visible: async () => (await scope).visible }),
  ]);
  return { ...listed(cutTo(page.listings, total, paging), total), likesOfLikedOnly: page.rounds <= 1 };
}

/**
 * `?username=`: the guard beside the caller's memberships (not needed by the author and community moderators),
 * then the author's stats beside their partition, filtered to the published feeds the caller may see (every one
 * of the caller's spaces stands in for those the author's counters name: the same feeds match).
 */
async function authorFeeds(caller: Caller, username: string, paging: Paging): Promise<ListedPage> {
  const seesAll = canSeeAllFeeds(caller);
  const own = username.toLowerCase() === caller.username.toLowerCase();
  const [authorId, memberships] = await Promise.all([
    resolveUsername(username),
    seesAll || own ? undefined : findActiveMembershipSpaceIds(caller.id),
  ]);
  if (isOwner(caller, authorId) || seesAll) {
    const [stats, found] = await Promise.all([
      findUserStats(authorId),
      queryAuthorFeedPage(authorId, { ...paging, filter: statusIs('published'), readAhead: READ_AHEAD }),
    ]);
    const total = stats.feeds_published ?? 0;
    return listed(cutTo(found, total, paging), total);
  }
  const mine = memberships ?? (await findActiveMembershipSpaceIds(caller.id));
  if (mine.length > MAX_FILTER_SPACES) {
    // More spaces than one FilterExpression names: the author's counters choose them first (one more round).
    const stats = await findUserStats(authorId);
    const scope = memberScope(stats, mine);
    const filter = allOf(statusIs('published'), visibleIn(scope.spaceIds));
    return listed(
      await queryAuthorFeedPage(authorId, { ...paging, total: scope.total, filter, readAhead: READ_AHEAD }),
      scope.total,
    );
  }
  const [stats, found] = await Promise.all([
    findUserStats(authorId),
    queryAuthorFeedPage(authorId, {
      ...paging,
      filter: allOf(statusIs('published'), visibleIn(mine)),
      readAhead: READ_AHEAD,
    }),
  ]);
  const { total } = memberScope(stats, mine);
  return listed(cutTo(found, total, paging), total);
}

/** The published feeds of the author's stats the caller may see: their members-only spaces and the total. */
function memberScope(stats: Counters, memberships: readonly number[]) {
  const counted = countersBySpace(stats, 'feeds_published_members:');
  const spaceIds = visibleMemberSpaces(counted, new Set(memberships));
  return { spaceIds, total: (stats.feeds_published_public ?? 0) + sumOf(counted, spaceIds) };
}

/**
 * One author's feeds in one space (the caller may see the space): counted by `feeds_published_space:<sid>`. A small
 * space (a few pages' worth of feeds) is read filtered to the author beside the author's stats; otherwise the
 * author's partition filtered to the space is read beside them (the stats are not known yet, so it is read even
 * when larger than the space's: O(the author's feeds until the page fills), never a whole large space).
 */
async function authorFeedsInSpace(
  authorId: number,
  spaceId: number,
  spaceSize: number,
  paging: Paging,
): Promise<ListedPage> {
  const smallSpace = spaceSize <= SMALL_SPACE_PAGES * paging.page * paging.perPage;
  const [stats, found] = await Promise.all([
    findUserStats(authorId),
    smallSpace
      ? querySpaceFeedPage(spaceId, { ...paging, filter: authorIs(authorId), readAhead: READ_AHEAD })
      : queryAuthorFeedPage(authorId, {
          ...paging,
          filter: allOf(statusIs('published'), spaceIs(spaceId)),
          readAhead: READ_AHEAD,
        }),
  ]);
  const total = stats[`feeds_published_space:${spaceId}`] ?? 0;
  return listed(cutTo(found, total, paging), total);
}

/** A space with at most this many pages' worth of feeds (up to the page asked) is read whole rather than the author. */
const SMALL_SPACE_PAGES = 5;

/**
 * A list read with a FilterExpression that may drop a fair share of it (another member's feeds: their drafts and
 * other members-only spaces' feeds) asks each read for twice what is still missing: a page most often fills in one
 * Query, for a few small listing entries more.
 */
const READ_AHEAD = 2;
