import { type Caller, canSeeAllFeeds } from '../auth/index.ts';
import { findActiveMembershipSpaceIds } from '../spaces/index.ts';
import { countersBySpace, sumOf, visibleIn, visibleListing, visibleMemberSpaces } from './feed-filters.ts';
import { cutTo, type ListedPage, listed, type Paging, readsBesideTotal } from './feed-list-page.ts';
import { findFeedStats, queryTimelinePage } from './feed-repository.ts';

/**
 * The timeline (no filter): its totals, the caller's memberships and the timeline's shards are read together (one
 * round); the visibility the first two decide applies to the entries the third read, and is the FilterExpression of
 * the one read on (a second round) where the merge needs it (feed-repository.ts `queryTimelinePage`). Then the
 * posts, and the caller's likes of the liked ones (after them when the shards took one round, beside them otherwise).
 */
export async function timelinePage(caller: Caller, paging: Paging): Promise<ListedPage> {
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
