import { openBuddypressSource } from '../../integrations/buddypress/connect.ts';
import type { BuddypressSource } from '../../integrations/buddypress/source.ts';
import type { MigrationMessage } from '../../messages/index.ts';
import { advanceIfPhaseDone, afterChunkRecorded } from './advance-run.ts';
import { ChunkInput } from './chunk-input.ts';
import { type ChunkEntry, planChunk } from './chunk-plan.ts';
import { giveUp, MAX_RECEIVES } from './give-up.ts';
import { migrateActivities } from './migrate-activities.ts';
import { migrateGroups } from './migrate-groups.ts';
import { migrateMembers } from './migrate-members.ts';
import { planPhase } from './plan-phase.ts';
import type { RunItem } from './run-item.ts';
import { recordChunk } from './record-chunk.ts';
import { claimChunkAttempt, findRun, findRunAndChunk } from './run-repository.ts';
import { applyTallyShard } from './apply-tally-shard.ts';
import { writeChunk } from './write-chunk.ts';

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
  // A chunk's start reads its marker with the run (one round trip); a plan or tally reads the run alone.
  const { run, recorded } =
    message.kind === 'chunk'
      ? await findRunAndChunk(message.source, message.run_id, message.phase, message.chunk)
      : { run: await findRun(message.source, true), recorded: false };
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
    else await runChunk(run, source, message, recorded);
  } catch (error) {
    if (receiveCount >= MAX_RECEIVES) await giveUp(run, message, error);
    throw error;
  }
}

/**
 * A chunk flows one way: read its rows, map them to values (reads only, but for the users and spaces that must
 * exist first, created behind their guards), plan the writes and the record as one value, write the targets
 * (idempotent puts at id-space ids, in-place updates of an earlier run's targets, earlier feeds' comment counts
 * behind their markers), then record the chunk: its counts, errors, tally and ledger entries once, and the phase
 * change when it is the phase's last (recordChunk). Each step is safe to repeat. The run item is read once, with
 * the chunk's marker, and written once, by the record: two round trips.
 */
async function runChunk(
  run: RunItem,
  source: BuddypressSource,
  message: ChunkMessage,
  recorded: boolean,
): Promise<void> {
  // A chunk counted already (a redelivery) wrote nothing since the run was read: that read decides.
  if (recorded) return advanceIfPhaseDone(run.source, run.run_id, message.phase, run);
  const first = await claimChunkAttempt(run, message.phase, message.chunk);
  const input = new ChunkInput(run, source, message.chunk, !first);
  const plan = planChunk(
    run,
    { phase: message.phase, chunkNo: message.chunk },
    await mapRange(input, message),
  );
  await writeChunk(plan.writes);
  await afterChunkRecorded(run, message.phase, await recordChunk(run, plan.record));
}

async function mapRange(input: ChunkInput, message: ChunkMessage): Promise<ChunkEntry[]> {
  const { source } = input;
  if (message.phase === 'groups')
    return migrateGroups(input, await source.groupsInRange(message.after, message.up_to));
  if (message.phase === 'members')
    return migrateMembers(input, await source.membershipsInRange(message.after, message.up_to));
  return migrateActivities(input, await source.rootActivitiesInRange(message.after, message.up_to));
}
