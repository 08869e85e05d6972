import { spaceStatsKey } from '../../db/keys/spaces.ts';
import type { MembershipRow } from '../../integrations/buddypress/source.ts';
import { type SpaceRole, storedMembership } from '../spaces/index.ts';
import { type ChunkContext, mapState } from './chunk-context.ts';
import { ensureUsers } from './ensure-users.ts';
import { createdRunOf, findMaps, storedMap } from './map-repository.ts';

/**
 * Confirmed, unbanned memberships (one per pair; the source query leaves out the rest) → active space members,
 * admin / moderator / member by the group flags. One this run creates moves the space's `members_count` (once,
 * when the chunk is recorded); one an earlier run created is skipped (`skip_existing`) or rewritten in place. A membership whose
 * group was not migrated is unmappable.
 */
export async function migrateMembers(context: ChunkContext, rows: readonly MembershipRow[]): Promise<void> {
  const { run } = context;
  const [maps, groups, users] = await Promise.all([
    findMaps(
      run.source,
      'membership',
      rows.map((row) => row.id),
    ),
    findMaps(
      run.source,
      'group',
      rows.map((row) => row.groupId),
    ),
    ensureUsers(
      context,
      rows.map((row) => row.userId),
    ),
  ]);
  // Pins the clock, so a redelivery writes the same dates.
  await context.reserve('members', {});
  for (const row of rows) {
    const space = groups.get(row.groupId);
    const userId = users.get(row.userId);
    if (!space) {
      context.fail('members', row.id, `group ${row.groupId} was not migrated`);
      continue;
    }
    if (userId === undefined) {
      context.fail('members', row.id, `user ${row.userId} not found`);
      continue;
    }
    const map = maps.get(row.id);
    const state = mapState(map, run.run_id);
    if (state === 'earlier_run' && context.skipExisting) {
      context.count('members', 'skipped');
      continue;
    }
    const role: SpaceRole = row.isAdmin ? 'admin' : row.isMod ? 'moderator' : 'member';
    context.writes.put(
      storedMembership({
        space_id: space.target_id,
        user_id: userId,
        role,
        status: 'active',
        created_at: context.dateOf(row.dateModified),
      }),
    );
    context.writes.put(
      storedMap(run.source, {
        kind: 'membership',
        source_id: row.id,
        target_id: userId,
        run_id: run.run_id,
        created_run_id: map ? createdRunOf(map) : run.run_id,
      }),
    );
    // Created by this run (now, or by an earlier delivery of this uncounted chunk): the space gains a member.
    if (state !== 'earlier_run')
      context.writes.count(
        spaceStatsKey(space.target_id),
        { members_count: 1 },
        { entity: 'space_stats', space_id: space.target_id },
      );
    context.count('members', 'migrated');
  }
}
