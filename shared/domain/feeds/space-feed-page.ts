import { type Caller, isSpaceMember } from '../auth/index.ts';
import { membershipRead, spaceRead } from '../spaces/index.ts';
import { userIdByUsernameRead } from '../users/index.ts';
import { mapRead, noRead, pairRead, readTogether } from '../../db/read-together.ts';
import { authorFeedsInSpace } from './author-space-feed-page.ts';
import { spaceNotFound } from './feed-errors.ts';
import {
  cutTo,
  type ListedPage,
  type ListFeedsInput,
  listed,
  type Paging,
  type PostPage,
  readsBesideTotal,
} from './feed-list-page.ts';
import { querySpaceFeedPage, spacePostCountRead } from './feed-repository.ts';
import { listTopicFeeds } from './list-topic-feeds.ts';
import { foundUser } from './username-guard.ts';

/**
 * `?space_id=` (with `topics` or `username`): the space, the caller's membership, the space's `posts_count` shards
 * (and the username's guard) in one BatchGetItem, beside the space's page when nothing else narrows it; a space the
 * caller may not see answers like an unknown one, whatever was read beside it.
 */
export async function spacePage(
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
