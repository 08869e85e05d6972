import * as v from 'valibot';
import { MIGRATION_ITEMS } from '../vocabulary/migrations.ts';

const id = v.pipe(v.number(), v.integer(), v.minValue(0));
const run = {
  source: v.literal('buddypress'),
  run_id: v.pipe(v.string(), v.minLength(1)),
};

/**
 * A message on the `migrations` queue. `plan` cuts a step of a run into work: an item phase into chunks (keyset
 * ranges of source ids, one `chunk` message each), the closing `tally` step into one `tally` message per shard.
 * `chunk` migrates the source rows with `after < id <= up_to` (`rows` of them, counted as failed if the chunk ends
 * in the DLQ); `tally` moves one shard of the run's summed aggregates.
 */
export const migrationMessageSchema = v.variant('kind', [
  v.object({ kind: v.literal('plan'), ...run, phase: v.picklist([...MIGRATION_ITEMS, 'tally']) }),
  v.object({
    kind: v.literal('chunk'),
    ...run,
    phase: v.picklist(MIGRATION_ITEMS),
    chunk: id,
    after: id,
    up_to: id,
    rows: id,
  }),
  v.object({ kind: v.literal('tally'), ...run, shard: id }),
]);

export type MigrationMessage = v.InferOutput<typeof migrationMessageSchema>;
