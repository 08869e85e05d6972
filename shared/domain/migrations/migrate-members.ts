import type { MembershipRow } from '../../integrations/buddypress/source.ts';
import {
  findMembershipsWithRun,
  type MembershipWithRun,
  membershipWrites,
  type SpaceRole,
} from '../spaces/index.ts';
import type { ChunkInput } from './chunk-input.ts';
import { type ChunkEntry, entry } from './chunk-plan.ts';
import { migratedRows } from './ledger.ts';
import { DELETED, groupSpaces } from './space-resolver.ts';
import { resolveUsers } from './user-resolver.ts';

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
export async function migrateMembers(
  context: ChunkInput,
  rows: readonly MembershipRow[],
): Promise<ChunkEntry[]> {
  const { run } = context;
  const [earlier, spaces, resolved] = await Promise.all([
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
  const users = resolved.users;
  const refused: ChunkEntry[] = [];
  const planned: PlannedMembership[] = [];
  for (const row of rows) {
    const space = spaces.get(row.groupId);
    const userId = users.get(row.userId);
    if (!space) refused.push(entry.failed('members', row.id, `group ${row.groupId} was not migrated`));
    else if (space === DELETED) refused.push(entry.row('members', 'skipped'));
    else if (userId === undefined)
      refused.push(entry.failed('members', row.id, `user ${row.userId} not found`));
    else if (earlier.has(row.id) && context.skipExisting) refused.push(entry.row('members', 'skipped'));
    else
      planned.push({
        row,
        spaceId: space.spaceId,
        userId,
        blind: !earlier.has(row.id) && !context.retry && space.createdRun === run.run_id,
      });
  }
  const existing = await findMembershipsWithRun(planned.filter((membership) => !membership.blind));
  return [
    ...resolved.warnings,
    ...refused,
    ...planned.flatMap((membership) =>
      membershipEntries(
        context,
        membership,
        existing.get(`${membership.spaceId}:${membership.userId}`),
        earlier,
      ),
    ),
  ];
}

interface PlannedMembership {
  readonly row: MembershipRow;
  readonly spaceId: number;
  readonly userId: number;
  /** Written without reading first: a first delivery into a space this run created. */
  readonly blind: boolean;
}

/** What one membership that may migrate becomes, given the membership the platform has (if read). */
function membershipEntries(
  context: ChunkInput,
  { row, spaceId, userId }: PlannedMembership,
  found: MembershipWithRun | undefined,
  earlier: ReadonlySet<number>,
): ChunkEntry[] {
  const role: SpaceRole = row.isAdmin ? 'admin' : row.isMod ? 'moderator' : 'member';
  if (earlier.has(row.id)) {
    // skip_existing off: the source's role, on the membership as the platform keeps it now.
    if (!found) return [entry.row('members', 'skipped')];
    return [
      entry.put({ ...membershipWrites({ ...found, role }).item, migration_run: found.migration_run }),
      entry.row('members', 'migrated'),
    ];
  }
  // The platform's own membership (a member who joined meanwhile) stays as it is. One a migration wrote but never
  // counted (an earlier delivery of this chunk, or a chunk of an earlier run that ended in the DLQ) is counted now.
  if (found && found.migration_run === undefined) return [entry.row('members', 'skipped')];
  const { item, joined } = membershipWrites({
    space_id: spaceId,
    user_id: userId,
    role,
    status: 'active',
    created_at: context.dateOf(row.dateModified),
  });
  return [
    ...(found ? [] : [entry.put({ ...item, migration_run: context.run.run_id })]),
    entry.counter(joined.key, joined.deltas, joined.identity),
    entry.created('members', row.id),
  ];
}
