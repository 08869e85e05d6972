import { invalidParams } from '../../errors/app-error.ts';
import { type Caller, canSeeAllFeeds } from '../auth/index.ts';
import { findActiveMembershipSpaceIds } from '../spaces/index.ts';
import { findTopicsByIds } from '../topics/index.ts';
import { type FeedFilter, findTopicFeedCounters, queryTopicFeedLinkPage } from './feed-repository.ts';
import { findPostsByIds } from './post-lookups.ts';
import { parseTopicCounters, spaceIs, visibleIn, visibleMemberSpaces } from './feed-filters.ts';
import type { PostPage } from './list-feeds.ts';
import type { PostTopicLink } from './post-item.ts';
import { timeSort } from '../../db/keys/sort.ts';

/**
 * With several topics and no cursor (paginator C has none), page N merges the first N pages of every topic's list;
 * beyond this many feeds into the list the request is refused (a single topic pages with its own list, as deep as
 * any other list).
 */
export const MULTI_TOPIC_WINDOW = 10_000;

/**
 * `GET /feeds?topics=a,b[&space_id=]`: the published feeds carrying any of the topics that exist (unknown and deleted
 * ids match nothing), newest first.
 *
 * Total: every feed adds 1 to a counter named by its whole topic set and its visibility on the stats item of each
 * of its topics (feed-aggregates.ts); the counters of the requested topics are read in one BatchGetItem and each
 * distinct counter is summed once, so a feed carrying two of the requested topics counts once. Counters of spaces
 * the caller may not see (or, with `space_id`, of other spaces) are left out, exactly as the page filter leaves
 * their feeds out.
 *
 * Page: each topic's list is a key-condition Query on its links (G3, published only) with the same filter; one
 * topic is paged directly; several are merged by sort key and deduplicated by feed, reading the first
 * (offset + per_page) links of each (the merged list's first k entries are among each list's first k).
 */
export async function listTopicFeeds(
  caller: Caller,
  requested: readonly number[],
  paging: { readonly page: number; readonly perPage: number },
  scope: { readonly spaceId?: number },
): Promise<PostPage> {
  const topics = await findTopicsByIds([...new Set(requested)]);
  const topicIds = topics.map((topic) => topic.id).sort((a, b) => a - b);
  if (topicIds.length === 0) return { posts: [], total: 0 };

  const counters = parseTopicCounters(await findTopicFeedCounters(topicIds));
  let filter: FeedFilter | undefined;
  let total: number;
  if (scope.spaceId !== undefined) {
    filter = spaceIs(scope.spaceId);
    total = counters
      .filter((counter) => counter.spaceId === scope.spaceId)
      .reduce((sum, c) => sum + c.count, 0);
  } else if (canSeeAllFeeds(caller)) {
    total = counters.reduce((sum, counter) => sum + counter.count, 0);
  } else {
    const membersOnly = new Map<number, number>();
    for (const counter of counters) {
      if (!counter.visibleToAll) {
        membersOnly.set(counter.spaceId, (membersOnly.get(counter.spaceId) ?? 0) + counter.count);
      }
    }
    const memberSpaceIds =
      membersOnly.size === 0
        ? []
        : visibleMemberSpaces(membersOnly, new Set(await findActiveMembershipSpaceIds(caller.id)));
    const visible = new Set(memberSpaceIds);
    filter = visibleIn(memberSpaceIds);
    total = counters
      .filter((counter) => counter.visibleToAll || visible.has(counter.spaceId))
      .reduce((sum, counter) => sum + counter.count, 0);
  }

  const links = await topicLinks(topicIds, paging, total, filter);
  const posts = await findPostsByIds(
    links.map((link) => link.post_id),
    { consistent: true },
  );
  return {
    // A feed unpublished or deleted since its link was listed is left out rather than shown.
    posts: links.flatMap((link) => {
      const post = posts.get(link.post_id);
      return post && post.status === 'published' ? [post] : [];
    }),
    total,
  };
}

async function topicLinks(
  topicIds: readonly number[],
  paging: { readonly page: number; readonly perPage: number },
  total: number,
  filter: FeedFilter | undefined,
): Promise<PostTopicLink[]> {
  const [only] = topicIds;
  if (topicIds.length === 1 && only !== undefined) {
    return (await queryTopicFeedLinkPage(only, { ...paging, total, filter })).items;
  }
  const offset = (paging.page - 1) * paging.perPage;
  if (offset >= total) return [];
  const window = offset + paging.perPage;
  if (window > MULTI_TOPIC_WINDOW) {
    throw invalidParams({ page: `is too deep for several topics (at most ${MULTI_TOPIC_WINDOW} feeds in)` });
  }
  const lists = await Promise.all(
    topicIds.map((topicId) => queryTopicFeedLinkPage(topicId, { page: 1, perPage: window, filter })),
  );
  const merged = new Map<number, PostTopicLink>();
  for (const list of lists) for (const link of list.items) merged.set(link.post_id, link);
  return [...merged.values()]
    .sort((a, b) => (timeSort(b.created_at, b.post_id) < timeSort(a.created_at, a.post_id) ? -1 : 1))
    .slice(offset, window);
}
