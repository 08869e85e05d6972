import * as v from 'valibot';
import { type MigrationItemKind, migrationMapKey } from '../../db/keys/migrations.ts';
import { batchGetItems } from '../../db/reads.ts';
import { putAction, type TransactAction } from '../../db/transact.ts';

/**
 * Source id → target id, across runs: what makes `skip_existing` and "never duplicated" hold. A map item is
 * written in the same transaction as its target, so a target exists exactly when its map does; `run_id` names the
 * run that last wrote it, which tells a retry of this run (already counted as migrated by this run's chunk) from
 * an earlier run's work (skipped, or updated in place).
 */
export const MapItemSchema = v.object({
  kind: v.string(),
  source_id: v.number(),
  target_id: v.number(),
  run_id: v.string(),
  /**
   * The run that created the mapping (absent: `run_id`). `run_id` moves when a later run updates the target in
   * place; this does not, so a redelivered chunk tells its own creations (counted when the chunk is recorded)
   * from an earlier run's rows it updated (never counted again).
   */
  created_run_id: v.optional(v.string()),
  /** Groups: the space's privacy, which their feeds' visibility follows. */
  privacy: v.optional(v.string()),
});
export type MapItem = v.InferOutput<typeof MapItemSchema>;

export async function findMaps(
  source: string,
  kind: MigrationItemKind,
  sourceIds: readonly number[],
): Promise<Map<number, MapItem>> {
  const unique = [...new Set(sourceIds)];
  const found = await batchGetItems(
    unique.map((id) => migrationMapKey(source, kind, id)),
    MapItemSchema,
    { consistent: true },
  );
  return new Map(found.map((item) => [item.source_id, item]));
}

/** The map item as stored, for a plain (idempotent) put of a chunk's rows. */
export const storedMap = (source: string, item: MapItem) => ({
  ...migrationMapKey(source, item.kind as MigrationItemKind, item.source_id),
  entity: 'migration_map',
  ...item,
});

/** The run that created a mapping. */
export const createdRunOf = (map: MapItem): string => map.created_run_id ?? map.run_id;

/**
 * The map write: a new mapping only if none exists; an update (skip_existing off) only if an earlier run wrote
 * it, so two deliveries of one chunk never both update.
 */
export function mapAction(source: string, item: MapItem, mode: 'new' | 'update'): TransactAction {
  const stored = storedMap(source, item);
  return mode === 'new'
    ? putAction(stored, { ifAbsent: true })
    : putAction(stored, {
        condition: {
          ConditionExpression: 'run_id <> :run',
          ExpressionAttributeValues: { ':run': item.run_id },
        },
      });
}
