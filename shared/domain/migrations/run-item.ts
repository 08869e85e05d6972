import * as v from 'valibot';
import { type MigrationLedgerKind, migrationRunKey } from '../../db/keys/migrations.ts';
import {
  MIGRATION_COUNTED,
  MIGRATION_ITEMS,
  MIGRATION_OPTIONS,
  type MigrationCounted,
  type MigrationItem,
} from '../../vocabulary/migrations.ts';

const integer = v.pipe(v.number(), v.integer());
const counts = v.record(v.string(), integer);

/**
 * A run as stored (`MIGRATION#<source>` / `RUN`): what was asked, the estimated totals, the phase in progress with
 * its chunk bookkeeping, and flat counters (`n_<item>_<outcome>`, `chunks_done_<phase>`) that each chunk moves
 * once, by ADD, in the same transaction as its marker. `GET …/status` is one read of this item.
 */
export const RunItemSchema = v.looseObject({
  run_id: v.string(),
  source: v.string(),
  status: v.picklist(['in_progress', 'completed', 'failed']),
  items: v.array(v.picklist(MIGRATION_ITEMS)),
  options: v.record(v.picklist(MIGRATION_OPTIONS), v.boolean()),
  totals: counts,
  phase: v.string(),
  /** When the current phase began (the conditional phase change): a plan still missing long after is lost. */
  phase_started_at: v.optional(v.string()),
  started_at: v.string(),
  /** The administrator who started the run: the uploader of a group's images when its creator is unknown. */
  started_by: v.optional(integer),
  completed_at: v.optional(v.string()),
  /** Errors as runs kept them before packing; new runs leave it empty (run-errors.ts). */
  errors: v.optional(v.array(v.object({ item: v.string(), id: v.string(), error: v.string() })), []),
  /** One gzipped element per counted chunk that reported errors, and their total size (run-errors.ts). */
  errors_packed: v.optional(v.array(v.instance(Uint8Array)), []),
  errors_bytes: v.optional(integer, 0),
  failure: v.optional(
    v.object({ message: v.string(), step: v.string(), completed: integer, total: integer }),
  ),
});
export type RunItem = v.InferOutput<typeof RunItemSchema>;

export type Outcome = 'migrated' | 'skipped' | 'failed';
export const counterName = (item: MigrationCounted, outcome: Outcome) => `n_${item}_${outcome}`;
/**
 * A run's steps: its items in dependency order, then `tally`, which moves the aggregates the items' chunks summed
 * (tally.ts) in TALLY_SHARDS shards, each counted as that step's chunk.
 */
export type RunPhase = MigrationItem | 'tally';

/** The ledger kind a phase's chunks are keyed by. */
export const chunkKind = (phase: MigrationItem): MigrationLedgerKind =>
  phase === 'groups' ? 'group' : phase === 'members' ? 'membership' : 'activity';
export const chunksDoneName = (phase: RunPhase) => `chunks_done_${phase}`;

/** The run's steps: its items in dependency order (groups → members → activities), then the tally. */
export const phasesOf = (run: Pick<RunItem, 'items'>): RunPhase[] => [
  ...MIGRATION_ITEMS.filter((item) => run.items.includes(item)),
  'tally',
];

/** A run's first step (a run of no items would go straight to its tally). */
export const firstPhase = (run: Pick<RunItem, 'items'>): RunPhase => phasesOf(run)[0] ?? 'tally';

/** The step after an item's chunks: a later item, or the tally (every run ends with it). */
export const phaseAfter = (run: Pick<RunItem, 'items'>, phase: MigrationItem): RunPhase => {
  const phases = phasesOf(run);
  return phases[phases.indexOf(phase) + 1] ?? 'tally';
};
export const chunksTotalName = (phase: RunPhase) => `chunks_total_${phase}`;

/** A run's counter, 0 when never moved. */
export const counterOf = (run: RunItem, name: string): number => {
  const value = (run as Record<string, unknown>)[name];
  return typeof value === 'number' ? value : 0;
};

/** What a run counts: its items, plus `comments` with `activities`. */
export const countedItems = (items: readonly MigrationItem[]): MigrationCounted[] =>
  MIGRATION_COUNTED.filter((item) =>
    item === 'comments' ? items.includes('activities') : items.includes(item),
  );

export const storedRun = (run: RunItem) => ({
  ...migrationRunKey(run.source),
  entity: 'migration_run',
  ...run,
});
