import { type Caller, canSeeAllFeeds, isOwner } from '../auth/index.ts';
import { findActiveMembershipSpaceIds } from '../spaces/index.ts';
import {
  allOf,
  countersBySpace,
  MAX_FILTER_SPACES,
  statusIs,
  sumOf,
  visibleIn,
  visibleMemberSpaces,
} from './feed-filters.ts';
import { cutTo, type ListedPage, listed, type Paging, READ_AHEAD } from './feed-list-page.ts';
import { type Counters, findUserStats, queryAuthorFeedPage } from './feed-repository.ts';
import { resolveUsername } from './username-guard.ts';

/**
 * `?username=`: the guard beside the caller's memberships (not needed by the author and community moderators),
 * then the author's stats beside their partition, filtered to the published feeds the caller may see (every one
 * of the caller's spaces stands in for those the author's counters name: the same feeds match).
 */
export async function authorFeeds(caller: Caller, username: string, paging: Paging): Promise<ListedPage> {
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
