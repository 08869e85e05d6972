import { getItem, getItems } from '../../db/reads.ts';
import {
  migrationChunkAttemptKey,
  migrationChunkKey,
  migrationLockKey,
  migrationRunKey,
} from '../../db/keys/migrations.ts';
import { deleteAction, putAction, transactWriteIfConditionsHold, updateAction } from '../../db/transact.ts';
import * as v from 'valibot';
import type { MigrationItem } from '../../vocabulary/migrations.ts';
import {
  chunkKind,
  chunksTotalName,
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
