import { type Caller, canViewProfileSpaces, isOwnerOrModerator, isSpaceMember } from '../auth/index.ts';
import { readTogether } from '../../db/read-together.ts';
import { findActiveMemberships, spacesWithStatsAndMembershipsRead } from '../spaces/index.ts';
import { userRead } from '../users/index.ts';
import { spacesHidden, userNotFound } from './profile-errors.ts';
import { type ProfileSpaceResponse, toProfileSpace } from './profile-space-mapper.ts';
import { assertReadable, userIdOfUsernameRead } from './profile-user.ts';
import { userSpaceVisibilityRead } from './space-visibility.ts';

/**
 * `GET /profile/{username}/spaces` (decisions.md): gated by `user_space_visibility` (`admin_only`: only the owner
 * and community moderators, else 403 `permission_failed`); only the community spaces the member actively belongs
 * to, in joining order; secret spaces only for the owner and community moderators; `members_count` 0 where
 * `hide_members_count` is on and the caller is not a member of the space (nor a community moderator). Cost:
 * O(the member's spaces): one BatchGetItem of the username guard and the privacy settings, the membership index,
 * then one BatchGetItem of the member, the spaces, their stats items and the caller's memberships of them (several
 * past 100 keys).
 */
export async function listProfileSpaces(
  caller: Caller,
  username: string,
): Promise<{ spaces: ProfileSpaceResponse[] }> {
  // Three rounds, three reads: the username's guard and the privacy settings in one BatchGetItem; the member's
  // memberships; one BatchGetItem of the member, the spaces, their stats and the caller's memberships of them (a
  // hidden count is read for nothing). Nothing is answered before the member is found readable.
  const [userId, visibility] = await readTogether([
    userIdOfUsernameRead(username),
    userSpaceVisibilityRead(),
  ] as const);
  const hidden = !canViewProfileSpaces(caller, userId, visibility);
  const memberships = hidden ? [] : await findActiveMemberships(userId);
  const spaceIds = memberships.map((membership) => membership.space_id);
  const [user, { spaces, memberships: callerMemberships, stats: statsOf }] = await readTogether([
    userRead(userId),
    spacesWithStatsAndMembershipsRead(spaceIds, caller.id),
  ] as const);
  if (user === undefined) throw userNotFound();
  assertReadable(caller, { user });
  if (hidden) throw spacesHidden();

  const mayKnowSecret = isOwnerOrModerator(caller, user.id);
  const listed = memberships.flatMap((membership) => {
    const space = spaces.get(membership.space_id);
    if (space?.type !== 'community') return [];
    if (space.privacy === 'secret' && !mayKnowSecret) return [];
    return [{ space, membership }];
  });
  const counts = listed.map(({ space }) => {
    const hidden =
      space.settings.hide_members_count === 'yes' && !isSpaceMember(caller, callerMemberships.get(space.id));
    return hidden ? 0 : (statsOf.get(space.id)?.members_count ?? 0);
  });
  return {
    spaces: listed.map(({ space, membership }, index) =>
      toProfileSpace(space, membership, counts[index] ?? 0),
    ),
  };
}
