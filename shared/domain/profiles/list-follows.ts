import type { Caller } from '../auth/index.ts';
import { findUsersByIds, type MemberSummary, toMemberSummary } from '../users/index.ts';
import type { FollowItem } from './follow-item.ts';
import { type FollowPageQuery, queryFollowerPage, queryFollowingPage } from './follow-repository.ts';
import { loadReadableProfile } from './profile-user.ts';

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
  const { user } = await loadReadableProfile(caller, input.username);
  const query: FollowPageQuery = {
    userId: user.id,
    page: input.page,
    perPage: input.per_page,
    cursor: input.cursor,
    total: which === 'followers' ? user.followers_count : user.followings_count,
  };
  const found = await (which === 'followers' ? queryFollowerPage(query) : queryFollowingPage(query));
  const otherOf = (follow: FollowItem) => (which === 'followers' ? follow.follower_id : follow.followed_id);
  const users = await findUsersByIds(found.items.map(otherOf));
  const items = found.items.flatMap((follow) => {
    const other = users.get(otherOf(follow));
    return other === undefined ? [] : [toMemberSummary(other)];
  });
  return {
    items,
    total: query.total,
    page: input.page,
    perPage: input.per_page,
    nextCursor: found.nextCursor,
  };
}
