import { invalidParams } from '../../errors/app-error.ts';
import type { Caller } from '../auth/index.ts';
import { noRead, pairRead, readTogether } from '../../db/read-together.ts';
import { authorFeeds } from './author-feed-page.ts';
import type { ListedPage, ListFeedsInput, PostPage } from './feed-list-page.ts';
import { type FeedResponse, feedContextRead, toFeedResponse } from './feed-mapper.ts';
import { findLikedPostIds, likedPostsRead, postsOfListings } from './feed-repository.ts';
import { listTopicFeeds } from './list-topic-feeds.ts';
import { spacePage } from './space-feed-page.ts';
import { timelinePage } from './timeline-page.ts';
import { unpublishedPage } from './unpublished-feed-page.ts';
import { resolveUsername } from './username-guard.ts';

export type { ListFeedsInput } from './feed-list-page.ts';

/** Paginator C. */
export interface FeedList {
  current_page: number;
  data: FeedResponse[];
  total: number;
  per_page: number;
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
  return timelinePage(caller, paging);
}
