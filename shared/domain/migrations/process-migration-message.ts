import { putItemsInBatches, updateItemsInParallel } from '../../db/batch-write.ts';
import { QUEUES } from '../../catalogue/queues.ts';
import { openBuddypressSource } from '../../integrations/buddypress/connect.ts';
import type { BuddypressSource } from '../../integrations/buddypress/source.ts';
import type { MigrationMessage } from '../../messages/index.ts';
import { advanceIfPhaseDone } from './advance-run.ts';
import { ChunkContext } from './chunk-context.ts';
import { giveUp } from './give-up.ts';
import { migrateActivities } from './migrate-activities.ts';
import { migrateGroups } from './migrate-groups.ts';
import { migrateMembers } from './migrate-members.ts';
import { planPhase } from './plan-phase.ts';
import { errorBytesLeft, packChunkErrors } from './run-errors.ts';
import { chunkKind, type RunItem } from './run-item.ts';
import {
  claimChunkAttempt,
  findRun,
  isChunkRecorded,
  moveFeedComments,
  recordChunk,
} from './run-repository.ts';
import { applyTallyShard } from './apply-tally-shard.ts';

const MAX_RECEIVES = QUEUES.find((queue) => queue.name === 'migrations')!.maxReceiveCount;
/** BatchWriteItem calls in flight per chunk. */
const PARALLEL_BATCHES = 4;

type ChunkMessage = Extract<MigrationMessage, { kind: 'chunk' }>;

/**
 * One `migrations` message. A message of another run, or of a run that has ended, is dropped. A message failing
 * on its last delivery is recorded before it goes to the DLQ (give-up.ts): a chunk counts its rows as failed (and
 * reports the range in `errors`), so the run still completes; a plan or tally failing ends the run `failed`.
 */
export async function processMigrationMessage(
  message: MigrationMessage,
  receiveCount: number,
): Promise<void> {
  const run = await findRun(message.source, true);
  if (!run || run.run_id !== message.run_id || run.status !== 'in_progress') return;
  try {
    if (message.kind === 'tally') {
      await applyTallyShard(run, message.shard);
      await advanceIfPhaseDone(run.source, run.run_id, 'tally');
      return;
    }
    const source = await openBuddypressSource();
    if (message.kind === 'plan') await planPhase(run, source, message.phase);
    else if (!source) throw new Error('The BuddyPress source is not configured.');
    else await runChunk(run, source, message);
  } catch (error) {
    if (receiveCount >= MAX_RECEIVES) await giveUp(run, message, error);
    throw error;
  }
}

/**
 * A chunk, in three steps each safe to repeat: map the rows (reads only), write the targets (idempotent puts at
 * id-space ids, in-place updates of an earlier run's targets), then count the chunk, its errors, its tally and its
 * ledger entries once (recordChunk).
 */
async function runChunk(run: RunItem, source: BuddypressSource, message: ChunkMessage): Promise<void> {
  if (!(await isChunkRecorded(run, message.phase, message.chunk))) {
    const first = await claimChunkAttempt(run, message.phase, message.chunk);
    const context = new ChunkContext(run, source, message.chunk, !first);
    await migrateRange(context, message);
    await putItemsInBatches(context.writes.puts, { parallel: PARALLEL_BATCHES });
    await updateItemsInParallel(context.writes.updates, { parallel: PARALLEL_BATCHES });
    for (const [postId, added] of context.writes.feedCommentMoves)
      await moveFeedComments(run, message.chunk, postId, added);
    await recordChunk(run, {
      phase: message.phase,
      chunkNo: message.chunk,
      counters: context.counters,
      errors: packChunkErrors(context.errors, errorBytesLeft(run)),
      tallies: context.writes.tally.shardItems(run.run_id, chunkKind(message.phase), message.chunk),
      ledger: context.ledger.entries(run.source, chunkKind(message.phase), run.run_id, message.chunk),
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
