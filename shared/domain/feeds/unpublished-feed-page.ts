import { forbidden, invalidParams } from '../../errors/app-error.ts';
import { type Caller, canSeeAllFeeds, isOwner } from '../auth/index.ts';
import { statusIs } from './feed-filters.ts';
import {
  cutTo,
  type ListedPage,
  type ListFeedsInput,
  listed,
  type Paging,
  READ_AHEAD,
  readsBesideTotal,
} from './feed-list-page.ts';
import { findUserStats, queryAuthorFeedPage } from './feed-repository.ts';
import { findFeedStatusTotals, queryUnpublishedFeedPage } from './status-list-repository.ts';
import { resolveUsername } from './username-guard.ts';

/**
 * `?status=` other than published. A community moderator without `username`: the status totals beside the status
 * list's shards (one round). Otherwise the author's (`username`'s guard first when named): their stats beside their
 * partition filtered by status (one round).
 */
export async function unpublishedPage(
  caller: Caller,
  input: ListFeedsInput,
  paging: Paging,
): Promise<ListedPage> {
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
