import { type Caller, canViewProfileSpaces, isOwnerOrModerator, isSpaceMember } from '../auth/index.ts';
import { findActiveMemberships, findSpacesWithStatsAndMemberships } from '../spaces/index.ts';
import { spacesHidden } from './profile-errors.ts';
import { type ProfileSpaceResponse, toProfileSpace } from './profile-space-mapper.ts';
import { withReadableProfile } from './profile-user.ts';
import { userSpaceVisibility } from './space-visibility.ts';

/**
 * `GET /profile/{username}/spaces` (decisions.md): gated by `user_space_visibility` (`admin_only`: only the owner
 * and community moderators, else 403 `permission_failed`); only the community spaces the member actively belongs
 * to, in joining order; secret spaces only for the owner and community moderators; `members_count` 0 where
 * `hide_members_count` is on and the caller is not a member of the space (nor a community moderator). Cost:
 * O(the member's spaces): the membership index (beside the profile), then one BatchGetItem of the spaces, their
 * stats items and the caller's memberships of them (one per 33 spaces, in parallel).
 */
export async function listProfileSpaces(
  caller: Caller,
  username: string,
): Promise<{ spaces: ProfileSpaceResponse[] }> {
  // The member's memberships are read beside the profile (dropped if it may not be read or the list is hidden).
  const [
    {
      record: { user },
      value: memberships,
    },
    visibility,
  ] = await Promise.all([
    withReadableProfile(caller, username, findActiveMemberships),
    userSpaceVisibility(),
  ]);
  if (!canViewProfileSpaces(caller, user.id, visibility)) throw spacesHidden();

  const spaceIds = memberships.map((membership) => membership.space_id);
  // Spaces, the caller's memberships and every space's counters in one BatchGetItem (per 33 spaces; a hidden
  // count is read for nothing).
  const {
    spaces,
    memberships: callerMemberships,
    stats: statsOf,
  } = await findSpacesWithStatsAndMemberships(spaceIds, caller.id);
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
