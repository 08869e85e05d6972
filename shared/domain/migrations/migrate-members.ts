import * as v from 'valibot';
import { membershipKey, spaceStatsKey } from '../../db/keys/spaces.ts';
import { batchGetItems } from '../../db/reads.ts';
import type { MembershipRow } from '../../integrations/buddypress/source.ts';
import { MembershipItemSchema, type SpaceRole, storedMembership } from '../spaces/index.ts';
import type { ChunkContext } from './chunk-context.ts';
import { migratedRows } from './ledger.ts';
import { DELETED, groupSpaces } from './space-resolver.ts';
import { resolveUsers } from './user-resolver.ts';

const ExistingSchema = v.object({ ...MembershipItemSchema.entries, migration_run: v.optional(v.string()) });

/**
 * Confirmed, unbanned memberships (one per pair; the source query leaves out the rest) → active space members,
 * admin / moderator / member by the group flags. A new one moves its space's `members_count` (tallied, moved at the
 * run's end). A membership the platform already has on its own is left as it is and counted skipped; one an
 * earlier run migrated is skipped, or (skip_existing off) gets the source's role. A membership whose group was not
 * migrated is unmappable.
 *
 * Reads: the memberships themselves only where one may exist already, that is in a space this run did not create,
 * or on a retry; a first delivery into this run's own spaces writes blind.
 */
export async function migrateMembers(context: ChunkContext, rows: readonly MembershipRow[]): Promise<void> {
  const { run } = context;
  const [earlier, spaces, users] = await Promise.all([
    migratedRows(
      run.source,
      'membership',
      rows.map((row) => row.id),
      { exceptRun: run.run_id },
    ).then((found) => found.rows),
    groupSpaces(
      context,
      rows.map((row) => row.groupId),
    ),
    resolveUsers(
      context,
      rows.map((row) => row.userId),
    ),
  ]);
  const planned: { row: MembershipRow; spaceId: number; userId: number; blind: boolean }[] = [];
  for (const row of rows) {
    const space = spaces.get(row.groupId);
    const userId = users.get(row.userId);
    if (!space) context.fail('members', row.id, `group ${row.groupId} was not migrated`);
    else if (space === DELETED) context.count('members', 'skipped');
    else if (userId === undefined) context.fail('members', row.id, `user ${row.userId} not found`);
    else if (earlier.has(row.id) && context.skipExisting) context.count('members', 'skipped');
    else
      planned.push({
        row,
        spaceId: space.spaceId,
        userId,
        blind: !earlier.has(row.id) && !context.retry && space.createdRun === run.run_id,
      });
  }
  const existing = await existingMemberships(planned.filter((entry) => !entry.blind));
  for (const { row, spaceId, userId } of planned) {
    const found = existing.get(`${spaceId}:${userId}`);
    const role: SpaceRole = row.isAdmin ? 'admin' : row.isMod ? 'moderator' : 'member';
    if (earlier.has(row.id)) {
      // skip_existing off: the source's role, on the membership as the platform keeps it now.
      if (!found) context.count('members', 'skipped');
      else {
        context.writes.put({ ...storedMembership({ ...found, role }), migration_run: found.migration_run });
        context.count('members', 'migrated');
      }
      continue;
    }
    // The platform's own membership (a member who joined meanwhile) stays as it is. One a migration wrote but
    // never counted (an earlier delivery of this chunk, or a chunk of an earlier run that ended in the DLQ) is
    // counted now.
    if (found && found.migration_run === undefined) {
      context.count('members', 'skipped');
      continue;
    }
    if (!found)
      context.writes.put({
        ...storedMembership({
          space_id: spaceId,
          user_id: userId,
          role,
          status: 'active',
          created_at: context.dateOf(row.dateModified),
        }),
        migration_run: run.run_id,
      });
    context.writes.count(
      spaceStatsKey(spaceId),
      { members_count: 1 },
      { entity: 'space_stats', space_id: spaceId },
    );
    context.created('members', row.id);
  }
}

async function existingMemberships(
  entries: readonly { spaceId: number; userId: number }[],
): Promise<Map<string, v.InferOutput<typeof ExistingSchema>>> {
  if (entries.length === 0) return new Map();
  const found = await batchGetItems(
    entries.map(({ spaceId, userId }) => membershipKey(spaceId, userId)),
    ExistingSchema,
    { consistent: true },
  );
  return new Map(found.map((membership) => [`${membership.space_id}:${membership.user_id}`, membership]));
}
