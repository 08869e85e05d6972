import { putItemsInBatches, updateItemsInParallel } from '../../db/batch-write.ts';
import { QUEUES } from '../../catalogue/queues.ts';
import { openBuddypressSource } from '../../integrations/buddypress/connect.ts';
import type { BuddypressSource } from '../../integrations/buddypress/source.ts';
import { publishBatch } from '../../integrations/queue-publisher.ts';
import type { MigrationMessage } from '../../messages/index.ts';
import { MIGRATION_ERRORS_KEPT, type MigrationItem } from '../../vocabulary/migrations.ts';
import { nowIso } from '../dates.ts';
import { advanceIfPhaseDone } from './advance-run.ts';
import { ChunkContext } from './chunk-context.ts';
import { migrateActivities } from './migrate-activities.ts';
import { migrateGroups } from './migrate-groups.ts';
import { migrateMembers } from './migrate-members.ts';
import { counterName, counterOf, type RunItem } from './run-item.ts';
import { findRun, finishRun, isChunkRecorded, recordChunk, setPhaseChunks } from './run-repository.ts';

/**
 * Source rows per chunk: small enough for one worker invocation (a 1 000-root chunk writes in seconds), big
 * enough that its aggregates sum many rows (the authors' stats items repeat across a chunk's rows). The price: a
 * poison chunk counts its whole range failed.
 */
export const CHUNK_SIZES: Record<MigrationItem, number> = { groups: 50, members: 1000, activities: 1000 };
const MAX_RECEIVES = QUEUES.find((queue) => queue.name === 'migrations')!.maxReceiveCount;
/** BatchWriteItem calls in flight per chunk. */
const PARALLEL_BATCHES = 4;

/**
 * One `migrations` message. A message of another run, or of a run that has ended, is dropped. A message failing
 * on its last delivery is recorded before it goes to the DLQ: a chunk counts its rows as failed (and reports the
 * range in `errors`), so the run still completes; a plan failing ends the run `failed` with the step it was on.
 */
export async function processMigrationMessage(
  message: MigrationMessage,
  receiveCount: number,
): Promise<void> {
  const run = await findRun(message.source, true);
  if (!run || run.run_id !== message.run_id || run.status !== 'in_progress') return;
  try {
    const source = await openBuddypressSource();
    if (!source) throw new Error('The BuddyPress source is not configured.');
    if (message.kind === 'plan') await planPhase(run, source, message.phase);
    else await runChunk(run, source, message);
  } catch (error) {
    if (receiveCount >= MAX_RECEIVES) await giveUp(run, message, error);
    throw error;
  }
}

/** Cuts the phase into keyset ranges, records how many, then sends them. */
async function planPhase(run: RunItem, source: BuddypressSource, phase: MigrationItem): Promise<void> {
  const chunks: Extract<MigrationMessage, { kind: 'chunk' }>[] = [];
  for (let after = 0; ; ) {
    const end = await source.nextChunkEnd(phase, after, CHUNK_SIZES[phase]);
    if (!end) break;
    chunks.push({
      kind: 'chunk',
      source: 'buddypress',
      run_id: run.run_id,
      phase,
      chunk: chunks.length,
      after,
      up_to: end.upTo,
      rows: end.rows,
    });
    after = end.upTo;
  }
  await setPhaseChunks(run, phase, chunks.length);
  await publishBatch('migrations', chunks);
  if (chunks.length === 0) await advanceIfPhaseDone(run.source, run.run_id, phase);
}

type ChunkMessage = Extract<MigrationMessage, { kind: 'chunk' }>;

async function runChunk(run: RunItem, source: BuddypressSource, message: ChunkMessage): Promise<void> {
  if (!(await isChunkRecorded(run, message.phase, message.chunk))) {
    const context = new ChunkContext(run, source, nowIso(), message.chunk);
    await migrateRange(context, message);
    // Items first (idempotent, rewritten as they are on a redelivery), then the one recording that counts them.
    await putItemsInBatches(context.writes.puts, { parallel: PARALLEL_BATCHES });
    await updateItemsInParallel(context.writes.updates, { parallel: PARALLEL_BATCHES });
    const room = Math.max(0, MIGRATION_ERRORS_KEPT - (run.errors?.length ?? 0));
    await recordChunk(run, {
      phase: message.phase,
      chunkNo: message.chunk,
      counters: context.counters,
      errors: context.errors.slice(0, room),
      aggregates: context.writes.counterActions(),
    });
  }
  await advanceIfPhaseDone(run.source, run.run_id, message.phase);
}

async function migrateRange(context: ChunkContext, message: ChunkMessage): Promise<void> {
  const { source } = context;
  if (message.phase === 'groups')
    await migrateGroups(context, await source.groupsInRange(message.after, message.up_to));
  else if (message.phase === 'members')
    await migrateMembers(context, await source.membershipsInRange(message.after, message.up_to));
  else await migrateActivities(context, await source.rootActivitiesInRange(message.after, message.up_to));
}

async function giveUp(run: RunItem, message: MigrationMessage, error: unknown): Promise<void> {
  const reason = error instanceof Error ? error.message : String(error);
  if (message.kind === 'plan') {
    await finishRun(run, 'failed', nowIso(), {
      message: `Planning ${message.phase} failed: ${reason}`,
      step: message.phase,
      completed: counterOf(run, counterName(message.phase, 'migrated')),
      total: run.totals[message.phase] ?? 0,
    });
    return;
  }
  if (await isChunkRecorded(run, message.phase, message.chunk)) return;
  const room = (run.errors?.length ?? 0) < MIGRATION_ERRORS_KEPT;
  await recordChunk(run, {
    phase: message.phase,
    chunkNo: message.chunk,
    counters: { [counterName(message.phase, 'failed')]: message.rows },
    errors: room
      ? [
          {
            item: message.phase,
            id: `${message.after + 1}-${message.up_to}`,
            error: `chunk failed ${MAX_RECEIVES} times: ${reason}`,
          },
        ]
      : [],
  });
  await advanceIfPhaseDone(run.source, run.run_id, message.phase);
}
