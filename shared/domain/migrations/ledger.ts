import * as v from 'valibot';
import { updateItemsInParallel } from '../../db/batch-write.ts';
import { type MigrationLedgerKind, migrationLedgerKey } from '../../db/keys/migrations.ts';
import { batchGetItems } from '../../db/reads.ts';
import { type TransactAction, updateAction } from '../../db/transact.ts';

/** Source ids per ledger item: a chunk's rows (ids close together) touch one or two blocks. */
export const LEDGER_BLOCK = 4096;

const blockOf = (sourceId: number) => Math.floor(sourceId / LEDGER_BLOCK);
/** The attribute holding one run's rows of a block (a number set). */
const runAttribute = (runId: string) => `r_${runId}`;

/**
 * The ledger of a source: which rows of one kind each run migrated, as one number set per run on an item per block
 * of source ids. What makes `skip_existing` and "never duplicated" hold across runs: a row in another run's set is
 * that run's (its target exists at its id-space id, unless the platform deleted it since); a row in no set, or
 * only in this run's, is this run's to create and count. A chunk adds its rows after writing their targets and
 * before the transaction that counts it; a retry of the chunk finds them in its own run's set and counts them
 * then, and a chunk given up takes them out again (`forgetRows`). `exceptRun` leaves that run's sets out.
 */
export async function migratedRows(
  source: string,
  kind: MigrationLedgerKind,
  sourceIds: readonly number[],
  options: { exceptRun?: string } = {},
): Promise<Set<number>> {
  const blocks = [...new Set(sourceIds.map(blockOf))];
  const items = await batchGetItems(
    blocks.map((block) => migrationLedgerKey(source, kind, block)),
    v.record(v.string(), v.unknown()),
    { consistent: true },
  );
  const earlier = new Set<number>();
  const own = options.exceptRun === undefined ? undefined : runAttribute(options.exceptRun);
  for (const item of items)
    for (const [name, value] of Object.entries(item))
      if (name.startsWith('r_') && name !== own && value instanceof Set)
        for (const id of value) earlier.add(Number(id));
  return new Set(sourceIds.filter((id) => earlier.has(id)));
}

/** Adds these rows to this run's sets (an `ADD` of a number set per block: adding twice changes nothing). */
export async function recordRows(
  source: string,
  kind: MigrationLedgerKind,
  sourceIds: readonly number[],
  runId: string,
): Promise<void> {
  await updateItemsInParallel(ledgerUpdates(source, kind, sourceIds, runId, 'ADD'), { parallel: 2 });
}

/** Takes these rows out of this run's sets (a chunk given up: its rows were never counted). */
export async function forgetRows(
  source: string,
  kind: MigrationLedgerKind,
  sourceIds: readonly number[],
  runId: string,
): Promise<void> {
  await updateItemsInParallel(ledgerUpdates(source, kind, sourceIds, runId, 'DELETE'), { parallel: 2 });
}

function ledgerUpdates(
  source: string,
  kind: MigrationLedgerKind,
  sourceIds: readonly number[],
  runId: string,
  operation: 'ADD' | 'DELETE',
): TransactAction[] {
  const byBlock = new Map<number, number[]>();
  for (const id of sourceIds) {
    const ids = byBlock.get(blockOf(id)) ?? [];
    ids.push(id);
    byBlock.set(blockOf(id), ids);
  }
  return [...byBlock].map(([block, ids]) =>
    updateAction(migrationLedgerKey(source, kind, block), {
      UpdateExpression: `SET #entity = :entity, #block = :block ${operation} #run :ids`,
      ExpressionAttributeNames: { '#entity': 'entity', '#block': 'block', '#run': runAttribute(runId) },
      ExpressionAttributeValues: { ':entity': 'migration_ledger', ':block': block, ':ids': new Set(ids) },
    }),
  );
}
