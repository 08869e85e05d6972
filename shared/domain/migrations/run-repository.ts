import { getItem } from '../../db/reads.ts';
import {
  migrationChunkKey,
  migrationChunkPartKey,
  migrationLockKey,
  migrationRunKey,
} from '../../db/keys/migrations.ts';
import { MAX_TRANSACTION_ACTIONS } from '../../db/transact.ts';
import {
  deleteAction,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import * as v from 'valibot';
import type { MigrationItem } from '../../vocabulary/migrations.ts';
import {
  chunkKind,
  chunksDoneName,
  chunksTotalName,
  type RunItem,
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

export async function isLocked(): Promise<boolean> {
  return (await getItem(migrationLockKey(), v.object({ run_id: v.string() }))) !== undefined;
}

/** Records how many chunks a phase has, before any of them is sent (so no chunk can finish the phase early). */
export async function setPhaseChunks(run: RunItem, phase: MigrationItem, chunks: number): Promise<void> {
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
  readonly errors: readonly { item: string; id: string; error: string }[];
  /** The chunk's aggregate moves (one counter update per item, in a stable order), moved exactly once too. */
  readonly aggregates?: readonly TransactAction[];
}

/** Room for aggregates beside a marker (and, in the last transaction, the run's update). */
const PART_ROOM = MAX_TRANSACTION_ACTIONS - 1;
const LAST_ROOM = MAX_TRANSACTION_ACTIONS - 2;

/**
 * Counts a chunk exactly once: its marker is created (`attribute_not_exists`) in the same transaction that adds
 * its counts and errors to the run and moves its aggregates, so a second delivery, or a retry after a worker
 * died, finds the marker and adds nothing. Aggregates beyond one transaction go first in parts, each with its own
 * marker (the same cut on every delivery, the order being stable), so each part also moves once. Progress
 * counters only grow, so they are plain ADDs here rather than counters.ts's guarded deltas. Answers false when
 * the chunk was already counted (or the run is no longer this one).
 */
export async function recordChunk(run: RunItem, chunk: ChunkRecord): Promise<boolean> {
  const aggregates = chunk.aggregates ?? [];
  const inParts = Math.max(0, aggregates.length - LAST_ROOM);
  const parts = Math.ceil(inParts / PART_ROOM);
  for (let part = 0; part < parts; part++) {
    const key = migrationChunkPartKey(run.run_id, chunkKind(chunk.phase), chunk.chunkNo, part);
    // A failed condition is the part's marker: another delivery moved this part already.
    await transactWriteIfConditionsHold([
      putAction({ ...key, entity: 'migration_chunk_part', run_id: run.run_id }, { ifAbsent: true }),
      ...aggregates.slice(part * PART_ROOM, Math.min(inParts, (part + 1) * PART_ROOM)),
    ]);
  }
  const names: Record<string, string> = { '#done': chunksDoneName(chunk.phase) };
  const values: Record<string, unknown> = { ':run': run.run_id, ':one': 1 };
  const adds = ['#done :one'];
  Object.entries(chunk.counters).forEach(([name, amount], i) => {
    names[`#c${i}`] = name;
    values[`:c${i}`] = amount;
    adds.push(`#c${i} :c${i}`);
  });
  let set = '';
  if (chunk.errors.length > 0) {
    names['#errors'] = 'errors';
    values[':errors'] = chunk.errors;
    values[':none'] = [];
    set = 'SET #errors = list_append(if_not_exists(#errors, :none), :errors) ';
  }
  const actions: TransactAction[] = [
    putAction(
      {
        ...migrationChunkKey(run.run_id, chunkKind(chunk.phase), chunk.chunkNo),
        entity: 'migration_chunk',
        run_id: run.run_id,
      },
      { ifAbsent: true },
    ),
    updateAction(migrationRunKey(run.source), {
      UpdateExpression: `${set}ADD ${adds.join(', ')}`,
      ConditionExpression: 'run_id = :run',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
    ...aggregates.slice(inParts),
  ];
  return (await transactWriteIfConditionsHold(actions)).written;
}

/** Moves the run to the next phase; only one caller wins (the phase it leaves is the condition). */
export async function advancePhase(run: RunItem, from: string, to: string): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([
    updateAction(migrationRunKey(run.source), {
      UpdateExpression: 'SET phase = :to',
      ConditionExpression: 'run_id = :run AND phase = :from AND #status = :running',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':run': run.run_id, ':from': from, ':to': to, ':running': 'in_progress' },
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
  return (await getItem(key, v.object({ run_id: v.string() }), { consistent: true })) !== undefined;
}
