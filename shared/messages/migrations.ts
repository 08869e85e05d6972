import * as v from 'valibot';
import { MIGRATION_ITEMS } from '../vocabulary/migrations.ts';

const id = v.pipe(v.number(), v.integer(), v.minValue(0));
const base = {
  source: v.literal('buddypress'),
  run_id: v.pipe(v.string(), v.minLength(1)),
  phase: v.picklist(MIGRATION_ITEMS),
};

/**
 * A message on the `migrations` queue. `plan` cuts a phase of a run into chunks (keyset ranges of source ids) and
 * sends one `chunk` message each; `chunk` migrates the source rows with `after < id <= up_to` (`rows` of them,
 * counted as failed if the chunk ends in the DLQ).
 */
export const migrationMessageSchema = v.variant('kind', [
  v.object({ kind: v.literal('plan'), ...base }),
  v.object({ kind: v.literal('chunk'), ...base, chunk: id, after: id, up_to: id, rows: id }),
]);

export type MigrationMessage = v.InferOutput<typeof migrationMessageSchema>;
