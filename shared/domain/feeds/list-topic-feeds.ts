import { topicPosts } from '../../db/keys/feeds.ts';
import { noRead, type KeyedRead, readTogether } from '../../db/read-together.ts';
import { MAX_SKIPPED_ITEMS } from '../../db/query-page.ts';
import { type KeepRule, querySpreadWindow } from '../../db/spread-page.ts';
import { invalidParams } from '../../errors/app-error.ts';
import { type Caller, canSeeAllFeeds } from '../auth/index.ts';
import { findActiveMembershipSpaceIds } from '../spaces/index.ts';
import { topicsByIdsRead } from '../topics/index.ts';
import { type FeedFilter, findLikedPostIds, topicFeedCountersRead } from './feed-repository.ts';
import { findPostsByIds } from './post-lookups.ts';
import {
  allOf,
  parseTopicCounters,
  spaceIs,
  type TopicCounter,
  visibleIn,
  visibleListing,
  visibleMemberSpaces,
} from './feed-filters.ts';
import type { PostPage } from './feed-list-page.ts';
import { type PostTopicLink, PostTopicLinkSchema } from './post-item.ts';

/**
 * With several topics and no cursor (paginator C has none), page N merges the first N pages of every topic's list;
 * beyond this many feeds into the list the request is refused (a single topic pages as deep as the timeline).
 */
export const MULTI_TOPIC_WINDOW = 10_000;

/**
 * `GET /feeds?topics=a,b[&space_id=]`: the published feeds carrying any of the topics that exist (unknown and deleted
 * ids match nothing), newest first.
 *
 * Total: every feed adds 1 to a counter named by its whole topic set and its visibility on the stats item of each
 * of its topics (feed-aggregates.ts); the counters of the requested topics are read in one BatchGetItem and each
 * distinct counter is summed once, so a feed carrying two of the requested topics counts once. Counters of spaces
 * the caller may not see (or, with `space_id`, of other spaces) are left out, exactly as the page leaves their feeds
 * out.
 *
 * Page: the topics' lists (G3 links, published only) are one list spread over k partitions (shared/db/spread-page.ts),
 * merged by sort key, each feed once. Three rounds: the topics, their counters (and `first`: the space checks) in one
 * BatchGetItem beside the caller's memberships and the lists' first reads; the posts (consistent) beside the caller's
 * likes of them; then (listFeeds) the authors and topics. The lists are read before it is known which topics exist
 * and what the caller may see: both apply to what was read, and are the FilterExpression of a read on (one more
 * round where the merge needs it). With `space_id` the space is the FilterExpression from the start.
 */
export async function listTopicFeeds(
  caller: Caller,
  requested: readonly number[],
  paging: { readonly page: number; readonly perPage: number },
  scope: { readonly spaceId?: number; readonly first?: KeyedRead<unknown> },
): Promise<PostPage> {
  const ids = [...new Set(requested)].sort((a, b) => a - b);
  const offset = (paging.page - 1) * paging.perPage;
  const window = offset + paging.perPage;
  const limit = ids.length === 1 ? MAX_SKIPPED_ITEMS : MULTI_TOPIC_WINDOW;
  if (window > limit) {
    throw invalidParams({ page: `is too deep for these topics (at most ${limit} feeds in)` });
  }
  const inSpace = scope.spaceId;
  const seesAll = inSpace !== undefined || canSeeAllFeeds(caller);
  const decided = Promise.all([
    readTogether([
      topicsByIdsRead(ids),
      topicFeedCountersRead(ids),
      scope.first ?? noRead(undefined),
    ] as const),
    seesAll ? ([] as number[]) : findActiveMembershipSpaceIds(caller.id),
  ]).then(([[topics, counters], memberships]) =>
    topicScope(
      topics.map((topic) => topic.id),
      parseTopicCounters(counters),
      inSpace,
      seesAll ? undefined : memberships,
    ),
  );
  const [{ total }, links] = await Promise.all([
    decided,
    querySpreadWindow({
      sources: ids.map(topicPosts),
      schema: PostTopicLinkSchema,
      window,
      ...(inSpace === undefined ? {} : { filter: spaceIs(inSpace) }),
      keep: async () => (await decided).keep,
      identity: (link) => String(link.post_id),
      // Links of members-only spaces the caller is not in are dropped after the first reads: read twice the share.
      readAhead: 2,
    }),
  ]);
  const page = offset >= total ? [] : links.items.slice(offset, window);
  const postIds = page.map((link) => link.post_id);
  const [posts, liked] = await Promise.all([
    findPostsByIds(postIds, { consistent: true }),
    findLikedPostIds(postIds, caller.id),
  ]);
  return {
    // A feed unpublished or deleted since its link was listed is left out rather than shown.
    posts: page.flatMap((link) => {
      const post = posts.get(link.post_id);
      return post && post.status === 'published' ? [post] : [];
    }),
    total,
    liked,
  };
}

/**
 * The total and the links shown: those of topics that exist, in `spaceId` (else public ones and those of the
 * caller's members-only spaces, every one for community moderators), as the counters count them.
 */
function topicScope(
  topicIds: readonly number[],
  counters: readonly TopicCounter[],
  spaceId: number | undefined,
  memberships: readonly number[] | undefined,
): { total: number; keep: KeepRule<PostTopicLink> } {
  const existing = new Set(topicIds);
  const ofTopics = topicIn(topicIds);
  const sum = (shown: (counter: TopicCounter) => boolean) =>
    counters.filter(shown).reduce((total, counter) => total + counter.count, 0);
  if (spaceId !== undefined || memberships === undefined) {
    return {
      total:
        topicIds.length === 0 ? 0 : sum((counter) => spaceId === undefined || counter.spaceId === spaceId),
      keep: { keeps: (link) => existing.has(link.topic_id), filter: ofTopics },
    };
  }
  const membersOnly = new Map<number, number>();
  for (const counter of counters) {
    if (!counter.visibleToAll) {
      membersOnly.set(counter.spaceId, (membersOnly.get(counter.spaceId) ?? 0) + counter.count);
    }
  }
  const spaceIds = visibleMemberSpaces(membersOnly, new Set(memberships));
  const visible = new Set(spaceIds);
  const shown = visibleListing(spaceIds);
  return {
    total: topicIds.length === 0 ? 0 : sum((counter) => counter.visibleToAll || visible.has(counter.spaceId)),
    keep: {
      keeps: (link) => existing.has(link.topic_id) && shown(link),
      filter: allOf(ofTopics, visibleIn(spaceIds)),
      share:
        sum((counter) => counter.visibleToAll || visible.has(counter.spaceId)) /
        Math.max(
          sum(() => true),
          1,
        ),
    },
  };
}

/** Links of these topics only (the lists of unknown or deleted topics are read with the others, and dropped). */
const topicIn = (topicIds: readonly number[]): FeedFilter => {
  const values = Object.fromEntries(topicIds.map((topicId, index) => [`:topic${index}`, topicId]));
  return {
    // No topic exists: a condition no link meets.
    expression:
      topicIds.length === 0
        ? 'attribute_not_exists(#topic)'
        : `#topic IN (${Object.keys(values).join(', ')})`,
    names: { '#topic': 'topic_id' },
    values,
  };
};
