import { counterUpdate } from '../../db/counters.ts';
import { spaceMembersWithRole, spaceStatsKey } from '../../db/keys/spaces.ts';
import { queryAll } from '../../db/reads.ts';
import { putAction, type TransactAction } from '../../db/transact.ts';
import { MembershipItemSchema, type SpaceItem, storedMembership } from './space-item.ts';

/**
 * The writes that make a user an active member of a space (a course: an enrolled student), for another domain's
 * transaction: the membership, created only if the user has none (`attribute_not_exists`, the first action), and
 * the space's counters (`members_count`, and `students_count` for a course) in the same transaction.
 */
export function membershipJoinActions(space: SpaceItem, userId: number, joinedAt: string): TransactAction[] {
  const role = space.type === 'course' ? 'student' : 'member';
  return [
    putAction(
      storedMembership({ space_id: space.id, user_id: userId, role, status: 'active', created_at: joinedAt }),
      { ifAbsent: true },
    ),
    counterUpdate(
      spaceStatsKey(space.id),
      { members_count: 1, ...(role === 'student' ? { students_count: 1 } : {}) },
      { setOnCreate: { entity: 'space_stats', space_id: space.id } },
    ),
  ];
}

/**
 * The ids of a space's admins and moderators (the audience of `space_join`): two Queries of the members-by-role
 * index, O(staff), whatever the number of members.
 */
export async function findSpaceStaffIds(spaceId: number): Promise<number[]> {
  // The two roles' partitions are read side by side (one round); admins first, as before.
  const byRole = await Promise.all(
    (['admin', 'moderator'] as const).map(async (role) => {
      const ids: number[] = [];
      for await (const batch of queryAll(spaceMembersWithRole(spaceId, role), MembershipItemSchema)) {
        for (const membership of batch) if (membership.status === 'active') ids.push(membership.user_id);
      }
      return ids;
    }),
  );
  return byRole.flat();
}
