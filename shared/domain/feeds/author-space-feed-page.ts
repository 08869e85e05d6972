import { allOf, authorIs, spaceIs, statusIs } from './feed-filters.ts';
import { cutTo, type ListedPage, listed, type Paging, READ_AHEAD } from './feed-list-page.ts';
import { findUserStats, queryAuthorFeedPage, querySpaceFeedPage } from './feed-repository.ts';

/**
 * `?space_id=&username=`: one author's feeds in one space (the caller may see the space): counted by
 * `feeds_published_space:<sid>`. A small space (a few pages' worth of feeds) is read filtered to the author beside
 * the author's stats; otherwise the author's partition filtered to the space is read beside them (the stats are not
 * known yet, so it is read even when larger than the space's: O(the author's feeds until the page fills), never a
 * whole large space).
 */
export async function authorFeedsInSpace(
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
