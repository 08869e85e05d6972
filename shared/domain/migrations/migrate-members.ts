import { spaceStatsKey } from '../../db/keys/spaces.ts';
import { putAction } from '../../db/transact.ts';
import type { MembershipRow } from '../../integrations/buddypress/source.ts';
import { type SpaceRole, storedMembership } from '../spaces/index.ts';
import { type ChunkContext, mapState } from './chunk-context.ts';
import { ensureUsers } from './ensure-users.ts';
import { findMaps, mapAction } from './map-repository.ts';
import { type UnitWrite, writeUnits } from './write-units.ts';

/**
 * Confirmed, unbanned memberships (one per pair; the source query leaves out the rest) → active space members,
 * admin / moderator / member by the group flags. A new one moves the space's `members_count`. A membership whose
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
  const units: UnitWrite[] = [];
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
    const state = mapState(maps.get(row.id), run.run_id);
    if (state === 'this_run') {
      context.count('members', 'migrated');
      continue;
    }
    if (state === 'earlier_run' && context.skipExisting) {
      context.count('members', 'skipped');
      continue;
    }
    const role: SpaceRole = row.isAdmin ? 'admin' : row.isMod ? 'moderator' : 'member';
    const membership = storedMembership({
      space_id: space.target_id,
      user_id: userId,
      role,
      status: 'active',
      created_at: context.dateOf(row.dateModified),
    });
    const map = { kind: 'membership', source_id: row.id, target_id: userId, run_id: run.run_id };
    units.push({
      actions: [mapAction(run.source, map, state === 'new' ? 'new' : 'update'), putAction(membership)],
      counters:
        state === 'new'
          ? [
              {
                key: spaceStatsKey(space.target_id),
                deltas: { members_count: 1 },
                setOnCreate: { entity: 'space_stats', space_id: space.target_id },
              },
            ]
          : [],
    });
    context.count('members', 'migrated');
  }
  await writeUnits(units);
}
