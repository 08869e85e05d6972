import { migrationChunkKey, migrationRunKey } from '../../db/keys/migrations.ts';
import type { ItemKey } from '../../db/partition.ts';
import {
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import type { MigrationItem } from '../../vocabulary/migrations.ts';
import { nowIso } from '../dates.ts';
import {
  chunkKind,
  chunksDoneName,
  chunksTotalName,
  counterOf,
  phaseAfter,
  type RunItem,
} from './run-item.ts';

/**
 * A chunk's last stage: its record, the one write of the chunk to the run item (the run was read once, with the
 * chunk's marker, at its start: run-repository.ts). Kept apart from the run's other storage so a chunk's path
 * passes through each module once: read (run-repository) → map → plan → write (write-chunk) → record (here).
 */
export interface ChunkRecord {
  readonly phase: MigrationItem;
  readonly chunkNo: number;
  /** Counter name → amount (progress counters only ever grow). */
  readonly counters: Readonly<Record<string, number>>;
  /** The chunk's errors, packed to fit the run's room (run-errors.ts). */
  readonly errors?: Uint8Array | undefined;
  /** The chunk's tally shards (tally.ts), stored with the chunk so only counted chunks reach the run's totals. */
  readonly tallies?: readonly (Record<string, unknown> & ItemKey)[];
  /** The chunk's ledger entries (ledger.ts): its rows are in the ledger exactly when it is counted. */
  readonly ledger?: readonly (Record<string, unknown> & ItemKey)[];
}

/** What recording a chunk did. */
export type RecordOutcome =
  /** Counted, and not the phase's last chunk (the condition proved chunks remain): nothing more to do. */
  | 'counted'
  /** Counted as the phase's last chunk, and the run moved to the next phase in the same transaction. */
  | 'counted_last'
  /** Counted on a run the phase change did not fit (it ended, say): whether the phase is done is read afresh. */
  | 'counted_unsure'
  /** Not counted: another delivery counted it already (its marker exists), or the run is no longer this one. */
  | 'not_counted';

/**
 * Counts a chunk exactly once, and moves the run to the next phase when it is the phase's last, in one round trip
 * to the run item. Its marker is created (`attribute_not_exists`) in the same transaction that adds its counts and
 * errors to the run and stores its tally shards and ledger entries, so a second delivery, or a retry after a
 * worker died, finds the marker and adds nothing. Progress counters only grow, so they are plain ADDs here rather
 * than counters.ts's guarded deltas.
 *
 * Which chunk is the last is decided by the store, not by a read after the write: the phase's chunk total is known
 * before any chunk is sent, so the count is conditioned on `chunks_done < total - 1` (chunks remain after this
 * one). Only when that fails (or the run as read shows this is the last) is it sent again conditioned on being the
 * last, with the phase change in the same update: the one delivery that counts the last chunk wins the change.
 */
export async function recordChunk(run: RunItem, chunk: ChunkRecord): Promise<RecordOutcome> {
  const total = (run as Record<string, unknown>)[chunksTotalName(chunk.phase)];
  if (typeof total !== 'number') return plainRecord(run, chunk);
  const last = total - 1;
  const doneAsRead = counterOf(run, chunksDoneName(chunk.phase));
  if (last > 0 && doneAsRead < last) {
    const notLast = await transactWriteIfConditionsHold(
      recordActions(run, chunk, {
        expression: '(attribute_not_exists(#done) OR #done < :last)',
        values: { ':last': last },
      }),
    );
    if (notLast.written) return 'counted';
    if (notLast.failed.includes(0)) return 'not_counted';
  }
  const next = phaseAfter(run, chunk.phase);
  const asLast = await transactWriteIfConditionsHold(
    recordActions(run, chunk, {
      expression: `phase = :from AND #status = :running${last > 0 ? ' AND #done >= :last' : ''}`,
      names: { '#status': 'status' },
      values: { ':from': chunk.phase, ':running': 'in_progress', ...(last > 0 ? { ':last': last } : {}) },
      set: { phase: next, phase_started_at: nowIso() },
    }),
  );
  if (asLast.written) return 'counted_last';
  if (asLast.failed.includes(0)) return 'not_counted';
  return plainRecord(run, chunk);
}

/** The count alone (no phase change): for a run whose phase is not this chunk's any more. */
async function plainRecord(run: RunItem, chunk: ChunkRecord): Promise<RecordOutcome> {
  const outcome = await transactWriteIfConditionsHold(recordActions(run, chunk, {}));
  return outcome.written ? 'counted_unsure' : 'not_counted';
}

/** The chunk's marker, the run's update (its counts, and `set` under `condition`), its tally and ledger items. */
function recordActions(
  run: RunItem,
  chunk: ChunkRecord,
  also: {
    readonly expression?: string;
    readonly names?: Readonly<Record<string, string>>;
    readonly values?: Readonly<Record<string, unknown>>;
    readonly set?: Readonly<Record<string, unknown>>;
  },
): TransactAction[] {
  const names: Record<string, string> = { '#done': chunksDoneName(chunk.phase), ...also.names };
  const values: Record<string, unknown> = { ':run': run.run_id, ':one': 1, ...also.values };
  const adds = ['#done :one'];
  Object.entries(chunk.counters).forEach(([name, amount], i) => {
    names[`#c${i}`] = name;
    values[`:c${i}`] = amount;
    adds.push(`#c${i} :c${i}`);
  });
  const sets: string[] = [];
  Object.entries(also.set ?? {}).forEach(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    sets.push(`#s${i} = :s${i}`);
  });
  if (chunk.errors) {
    names['#errors'] = 'errors_packed';
    names['#bytes'] = 'errors_bytes';
    values[':errors'] = [chunk.errors];
    values[':none'] = [];
    values[':bytes'] = chunk.errors.byteLength;
    sets.push('#errors = list_append(if_not_exists(#errors, :none), :errors)');
    adds.push('#bytes :bytes');
  }
  return [
    putAction(
      {
        ...migrationChunkKey(run.run_id, chunkKind(chunk.phase), chunk.chunkNo),
        entity: 'migration_chunk',
        run_id: run.run_id,
      },
      { ifAbsent: true },
    ),
    updateAction(migrationRunKey(run.source), {
      UpdateExpression: `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}ADD ${adds.join(', ')}`,
      ConditionExpression: `run_id = :run${also.expression ? ` AND ${also.expression}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
    ...(chunk.tallies ?? []).map((item) => putAction(item)),
    ...(chunk.ledger ?? []).map((item) => putAction(item)),
  ];
}
