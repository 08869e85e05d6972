import type { Caller } from '../auth/index.ts';
import { findUsersByIds, type MemberSummary, toMemberSummary, type UserItem } from '../users/index.ts';
import type { FollowItem } from './follow-item.ts';
import { type FollowPageQuery, queryFollowerPage, queryFollowingPage } from './follow-repository.ts';
import { userNotFound } from './profile-errors.ts';
import { assertReadable, resolveUserId } from './profile-user.ts';

export interface ListFollowsInput {
  readonly username: string;
  readonly page: number;
  readonly per_page: number;
  readonly cursor?: string | undefined;
}

export interface MemberPage {
  readonly items: MemberSummary[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  readonly nextCursor: string | null;
}

/**
 * `GET /profile/{username}/followers` and `/followings`: paginator B of member summaries, in user-id order. The
 * total is the maintained counter on the user item; page 1 is the username's guard, one Query and one
 * BatchGetItem of the member and the page's users.
 */
export const listFollowers = (caller: Caller, input: ListFollowsInput) =>
  listFollows(caller, input, 'followers');
export const listFollowings = (caller: Caller, input: ListFollowsInput) =>
  listFollows(caller, input, 'followings');

async function listFollows(
  caller: Caller,
  input: ListFollowsInput,
  which: 'followers' | 'followings',
): Promise<MemberPage> {
  const read = which === 'followers' ? queryFollowerPage : queryFollowingPage;
  const countOf = (user: UserItem | undefined) =>
    (which === 'followers' ? user?.followers_count : user?.followings_count) ?? 0;
  const pageOf = (userId: number, total: number | undefined): FollowPageQuery => ({
    userId,
    page: input.page,
    perPage: input.per_page,
    cursor: input.cursor,
    total,
  });
  const otherOf = (follow: FollowItem) => (which === 'followers' ? follow.follower_id : follow.followed_id);
  const userId = await resolveUserId(input.username);
  let found: Awaited<ReturnType<typeof read>>;
  let users: Map<number, UserItem>;
  if (input.page === 1) {
    // Page 1 needs no total (nothing to skip): the page first, then the member with the page's users in one
    // BatchGetItem (three reads). Nothing of the page is answered unless the profile exists and may be read.
    found = await read(pageOf(userId, undefined));
    users = await findUsersByIds([userId, ...found.items.map(otherOf)]);
  } else {
    // A later page bounds its skip with the total on the member's item, read first.
    const member = await findUsersByIds([userId]);
    const known = member.get(userId);
    if (known === undefined) throw userNotFound();
    assertReadable(caller, { user: known });
    const total = countOf(known);
    found = await read(pageOf(userId, total));
    users = new Map([...member, ...(await findUsersByIds(found.items.map(otherOf)))]);
  }
  const user = users.get(userId);
  if (user === undefined) throw userNotFound();
  assertReadable(caller, { user });
  const total = countOf(user);
  const items = found.items.flatMap((follow) => {
    const other = users.get(otherOf(follow));
    return other === undefined ? [] : [toMemberSummary(other)];
  });
  return {
    items,
    total,
    page: input.page,
    perPage: input.per_page,
    nextCursor: found.nextCursor,
  };
}
