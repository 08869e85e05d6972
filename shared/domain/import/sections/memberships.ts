import { spaceStatsKey } from '../../../db/keys/spaces.ts';
import { type SpaceRole, storedMembership } from '../../spaces/index.ts';
import type { BuildContext } from './section.ts';

/** Members of a space or course as the file lists them (spaces: `members`; courses: `admins` and `students`). */
export interface ImportMember {
  readonly user: string;
  readonly role: SpaceRole;
}

/**
 * One unit per membership, each counting itself on the space's stats (`members_count`, and `students_count` for a
 * course's students). A rollback deletes a membership only while its role and status are as imported.
 */
export function buildMembers(
  context: BuildContext,
  spaceId: number,
  members: readonly ImportMember[],
  createdAt: string,
  label: string,
): void {
  for (const member of members) {
    const membership = storedMembership({
      space_id: spaceId,
      user_id: context.userId(member.user),
      role: member.role,
      status: 'active',
      created_at: createdAt,
    });
    context.plan.unit(
      label,
      [{ item: membership, unchanged: ['role', 'status'] }],
      [
        {
          key: spaceStatsKey(spaceId),
          deltas: { members_count: 1, ...(member.role === 'student' ? { students_count: 1 } : {}) },
        },
      ],
    );
  }
}
