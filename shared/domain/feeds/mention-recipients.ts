import type { Caller } from '../auth/index.ts';
import { findMembershipsOfUsers, type MembershipItem } from '../spaces/index.ts';
import { findUsersByIds, mentionedUserIds } from '../users/index.ts';
import { callerOf } from './feed-access.ts';

/**
 * The ids of the users a text mentions (once each, `excluded` left out) who may see what mentions them: `maySee`
 * judges each as a caller with their membership of `spaceId` (a feed's space, a course; none for the global feed).
 * Two reads whatever the count: the users and their memberships, side by side.
 */
export async function mentionRecipients(
  usernames: readonly string[],
  excluded: ReadonlySet<number>,
  spaceId: number | null,
  maySee: (mentioned: Caller, membership: MembershipItem | undefined) => boolean,
): Promise<number[]> {
  const candidates = await mentionedUserIds(usernames, excluded);
  if (candidates.length === 0) return [];
  const [users, memberships] = await Promise.all([
    findUsersByIds(candidates),
    spaceId === null ? new Map<number, MembershipItem>() : findMembershipsOfUsers(spaceId, candidates),
  ]);
  return candidates.filter((id) => {
    const user = users.get(id);
    return user !== undefined && maySee(callerOf(user), memberships.get(id));
  });
}
