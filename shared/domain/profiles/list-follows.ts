import type { Caller } from '../auth/index.ts';
import { findUsersByIds, type MemberSummary, toMemberSummary } from '../users/index.ts';
import type { FollowItem } from './follow-item.ts';
import { type FollowPageQuery, queryFollowerPage, queryFollowingPage } from './follow-repository.ts';
import { withReadableProfile } from './profile-user.ts';

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
 * total is the maintained counter on the user item; a page is one Query plus one BatchGetItem of its users.
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
  const pageOf = (userId: number, total: number | undefined): FollowPageQuery => ({
    userId,
    page: input.page,
    perPage: input.per_page,
    cursor: input.cursor,
    total,
  });
  // Page 1 needs no total (nothing to skip): read beside the profile. A later page uses the total to bound its skip.
  const {
    record: { user },
    value: early,
  } = await withReadableProfile(caller, input.username, async (userId) =>
    input.page === 1 ? read(pageOf(userId, undefined)) : undefined,
  );
  const total = which === 'followers' ? user.followers_count : user.followings_count;
  const found = early ?? (await read(pageOf(user.id, total)));
  const otherOf = (follow: FollowItem) => (which === 'followers' ? follow.follower_id : follow.followed_id);
  const users = await findUsersByIds(found.items.map(otherOf));
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
