import * as v from 'valibot';
import { spaceKey } from '../../db/keys/spaces.ts';
import { batchGetItems } from '../../db/reads.ts';
import { SPACE_PRIVACIES, type SpacePrivacy } from '../../vocabulary/spaces.ts';
import type { ChunkInput } from './chunk-input.ts';
import { targetIds } from './id-spaces.ts';
import { migratedRows } from './ledger.ts';

export interface GroupSpace {
  readonly spaceId: number;
  readonly privacy: SpacePrivacy;
  /** The run that created the space (absent: not a migration's, or before runs were stamped). */
  readonly createdRun: string | undefined;
}

/** A migrated group whose space the platform has deleted since. */
export const DELETED = 'deleted' as const;

const SpaceReadSchema = v.object({
  id: v.number(),
  privacy: v.picklist(SPACE_PRIVACIES),
  migration_run: v.optional(v.string()),
});

let cache: { runId: string; groups: Map<number, GroupSpace | typeof DELETED | null> } | undefined;

/**
 * The space of each migrated group (`DELETED` when the platform deleted it; absent when the group was never
 * migrated), read once per run and process: the members and activities phases run after the groups phase has
 * ended, so what they ask cannot change under them. Privacy comes from the space as it is now, which is what its
 * feeds' visibility follows.
 */
export async function groupSpaces(
  context: ChunkInput,
  groupIds: readonly number[],
): Promise<Map<number, GroupSpace | typeof DELETED>> {
  if (cache?.runId !== context.run.run_id) cache = { runId: context.run.run_id, groups: new Map() };
  const { groups } = cache;
  const fresh = [...new Set(groupIds)].filter((id) => !groups.has(id));
  if (fresh.length > 0) {
    const migrated = [...(await migratedRows(context.run.source, 'group', fresh)).rows];
    const ids = await targetIds(context.run.source, 'space', migrated);
    const spaces = new Map(
      (
        await batchGetItems(
          [...ids.values()].map((id) => spaceKey(id)),
          SpaceReadSchema,
          { consistent: true },
        )
      ).map((space) => [space.id, space]),
    );
    for (const id of fresh) groups.set(id, null);
    for (const [groupId, spaceId] of ids) {
      const space = spaces.get(spaceId);
      groups.set(
        groupId,
        space ? { spaceId, privacy: space.privacy, createdRun: space.migration_run } : DELETED,
      );
    }
  }
  const answer = new Map<number, GroupSpace | typeof DELETED>();
  for (const id of groupIds) {
    const known = groups.get(id);
    if (known) answer.set(id, known);
  }
  return answer;
}
