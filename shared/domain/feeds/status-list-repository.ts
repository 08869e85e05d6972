import { feedStatusStats, unpublishedPostsShards } from '../../db/keys/feeds.ts';
import { timeSort } from '../../db/keys/sort.ts';
import { MAX_SKIPPED_ITEMS, queryPage } from '../../db/query-page.ts';
import { readShardedTotals } from '../../db/sharded-counters.ts';
import { invalidParams } from '../../errors/app-error.ts';
import type { Counters, FeedPageQuery } from './feed-repository.ts';
import { type FeedStatus, type PostListing, PostListingSchema } from './post-item.ts';

/**
 * The site's unpublished feeds by status, for community moderators' `GET /feeds?status=` (ACCESS_PATTERNS.md): the
 * status lists (G3 `FEEDS#<STATUS>#<n>` on the listing entries, `unpublishedPostsShards`) and their totals
 * (`feedStatusStats`), both spread over shards by feed id and maintained by every feed write (feed-aggregates.ts,
 * post-item.ts). The posts of a page are read like every feed list's (`postsOfListings`).
 */

/**
 * The unpublished-feed totals by status (`draft`, `pending`, `scheduled`), summed over their shards in one
 * BatchGetItem, consistent like the page they total.
 */
export async function findFeedStatusTotals(): Promise<Counters> {
  const [totals] = await readShardedTotals([feedStatusStats()], { consistent: true });
  return totals ?? {};
}

/**
 * Every author's unpublished feeds in one status, newest first: each shard read for its first (offset + per_page)
 * entries, in parallel, key conditions only; merged by sort key and cut to the page. Page 1 reads at most per_page
 * small entries per shard, whatever the number of such feeds. Paginator C has no cursor, so a page N reads each
 * shard's window in one Query per MB rather than page after page (N serial rounds); a window over 100 000 is
 * refused, as for the timeline.
 */
export async function queryUnpublishedFeedPage(
  status: FeedStatus,
  query: Omit<FeedPageQuery, 'filter'>,
): Promise<PostListing[]> {
  const offset = (query.page - 1) * query.perPage;
  if (query.total !== undefined && offset >= query.total) return [];
  const window = offset + query.perPage;
  if (window > MAX_SKIPPED_ITEMS) {
    throw invalidParams({ page: `is too deep for this list (at most ${MAX_SKIPPED_ITEMS} feeds in)` });
  }
  const shards = await Promise.all(
    unpublishedPostsShards(status).map((partition) =>
      queryPage({ partition, schema: PostListingSchema, ascending: false, page: 1, perPage: window }),
    ),
  );
  return shards
    .flatMap((shard) => shard.items)
    .map((listing) => ({ listing, sort: timeSort(listing.created_at, listing.post_id) }))
    .sort((a, b) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : 0))
    .slice(offset, window)
    .map(({ listing }) => listing);
}
