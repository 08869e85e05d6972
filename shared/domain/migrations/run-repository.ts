import { getItem, getItems } from '../../db/reads.ts';
import {
  migrationChunkAttemptKey,
  migrationChunkKey,
  migrationLockKey,
  migrationRunKey,
} from '../../db/keys/migrations.ts';
import type { ItemKey } from '../../db/partition.ts';
import {
  deleteAction,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import * as v from 'valibot';
import type { MigrationItem } from '../../vocabulary/migrations.ts';
import { nowIso } from '../dates.ts';
import {
  chunkKind,
  chunksDoneName,
  chunksTotalName,
  counterOf,
  phaseAfter,
  type RunItem,
  type RunPhase,
  RunItemSchema,
  storedRun,
} from './run-item.ts';

/**
 * The run's storage: the lock (one run at a time, any source), the run item the status reads, and the per-chunk
 * markers that make each chunk count once. Conditions name the run id, so a message of an older run never moves
 * the current one.
 */
const ofRun = (runId: string) => ({
  ConditionExpression: 'run_id = :run',
  ExpressionAttributeValues: { ':run': runId },
});

/** Takes the lock and records the run in one transaction; false when another run holds the lock. */
export async function insertRunWithLock(run: RunItem): Promise<boolean> {
  const lock = { ...migrationLockKey(), entity: 'migration_lock', run_id: run.run_id, source: run.source };
  const outcome = await transactWriteIfConditionsHold([
    putAction(lock, { ifAbsent: true }),
    putAction(storedRun(run)),
  ]);
  return outcome.written;
}

export const findRun = (source: string, consistent = false): Promise<RunItem | undefined> =>
  getItem(migrationRunKey(source), RunItemSchema, { consistent });

const MarkerSchema = v.object({ run_id: v.string() });

/**
 * A chunk's start in one round trip: the run (consistent) and whether this chunk of run `runId` is counted already
 * (its marker), read together in one BatchGetItem.
 */
export async function findRunAndChunk(
  source: string,
  runId: string,
  phase: MigrationItem,
  chunkNo: number,
): Promise<{ run: RunItem | undefined; recorded: boolean }> {
  const [run, marker] = await getItems<[RunItem, v.InferOutput<typeof MarkerSchema>]>(
    [
      { key: migrationRunKey(source), schema: RunItemSchema },
      { key: migrationChunkKey(runId, chunkKind(phase), chunkNo), schema: MarkerSchema },
    ],
    { consistent: true },
  );
  return { run, recorded: marker !== undefined };
}

export async function isLocked(): Promise<boolean> {
  return (await getItem(migrationLockKey(), v.object({ run_id: v.string() }))) !== undefined;
}

/** Records how many chunks a phase has, before any of them is sent (so no chunk can finish the phase early). */
export async function setPhaseChunks(run: RunItem, phase: RunPhase, chunks: number): Promise<void> {
  await transactWriteIfConditionsHold([
    updateAction(migrationRunKey(run.source), {
      UpdateExpression: 'SET #total = :n',
      ...ofRun(run.run_id),
      ExpressionAttributeNames: { '#total': chunksTotalName(phase) },
      ExpressionAttributeValues: { ':run': run.run_id, ':n': chunks },
    }),
  ]);
}

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

/**
 * Marks that a chunk's processing started; answers false when an earlier delivery marked it already (a retry: its
 * targets may be partly written).
 */
export async function claimChunkAttempt(
  run: RunItem,
  phase: MigrationItem,
  chunkNo: number,
): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([
    putAction(
      {
        ...migrationChunkAttemptKey(run.run_id, chunkKind(phase), chunkNo),
        entity: 'migration_chunk_attempt',
        run_id: run.run_id,
      },
      { ifAbsent: true },
    ),
  ]);
  return outcome.written;
}

/** Moves the run to the next phase; only one caller wins (the phase it leaves is the condition). */
export async function advancePhase(run: RunItem, from: RunPhase, to: RunPhase, at: string): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([
    updateAction(migrationRunKey(run.source), {
      UpdateExpression: 'SET phase = :to, phase_started_at = :at',
      ConditionExpression: 'run_id = :run AND phase = :from AND #status = :running',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':run': run.run_id,
        ':from': from,
        ':to': to,
        ':at': at,
        ':running': 'in_progress',
      },
    }),
  ]);
  return outcome.written;
}

/** Ends the run (completed or failed) and releases the lock, once. */
export async function finishRun(
  run: RunItem,
  status: 'completed' | 'failed',
  completedAt: string,
  failure?: RunItem['failure'],
): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([
    updateAction(migrationRunKey(run.source), {
      UpdateExpression: `SET #status = :status, completed_at = :at, phase = :done${failure ? ', failure = :failure' : ''}`,
      ConditionExpression: 'run_id = :run AND #status = :running',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':run': run.run_id,
        ':status': status,
        ':at': completedAt,
        ':done': 'done',
        ':running': 'in_progress',
        ...(failure ? { ':failure': failure } : {}),
      },
    }),
    deleteAction(migrationLockKey(), ofRun(run.run_id)),
  ]);
  return outcome.written;
}

/** Whether a chunk was already counted (its marker exists). */
export async function isChunkRecorded(run: RunItem, phase: MigrationItem, chunkNo: number): Promise<boolean> {
  const key = migrationChunkKey(run.run_id, chunkKind(phase), chunkNo);
  return (await getItem(key, MarkerSchema, { consistent: true })) !== undefined;
}
