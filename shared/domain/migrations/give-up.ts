import { queueNamed } from '../../catalogue/queues.ts';
import { openBuddypressSource } from '../../integrations/buddypress/connect.ts';
import type { MigrationMessage } from '../../messages/index.ts';
import type { MigrationCounted } from '../../vocabulary/migrations.ts';
import { nowIso } from '../dates.ts';
import { afterChunkRecorded } from './advance-run.ts';
import { underSpam } from './comment-trees.ts';
import { errorBytesLeft, packChunkErrors } from './run-errors.ts';
import { counterName, counterOf, type RunItem } from './run-item.ts';
import { recordChunk } from './record-chunk.ts';
import { finishRun, isChunkRecorded } from './run-repository.ts';

/** Deliveries of a `migrations` message before it goes to the DLQ: the last one gives up (`giveUp`). */
export const MAX_RECEIVES = queueNamed('migrations').maxReceiveCount;

type ChunkMessage = Extract<MigrationMessage, { kind: 'chunk' }>;

/**
 * The last delivery of a message failed. A chunk is counted, so the run still completes: every row of its range
 * failed (for activities, their comments too) and one error names the range; its rows stay out of the ledger (a
 * later run creates them). A plan or a tally shard cannot be counted that way: the run ends `failed`, with the
 * step it was on, and the lock is released.
 */
export async function giveUp(run: RunItem, message: MigrationMessage, error: unknown): Promise<void> {
  const reason = error instanceof Error ? error.message : String(error);
  if (message.kind !== 'chunk') {
    const step = message.kind === 'tally' ? 'tally' : message.phase;
    const item = message.kind === 'plan' && message.phase !== 'tally' ? message.phase : undefined;
    await finishRun(run, 'failed', nowIso(), {
      message: `${step === 'tally' ? 'Updating the totals' : `Planning ${step}`} failed: ${reason}`,
      step,
      completed: item ? counterOf(run, counterName(item, 'migrated')) : 0,
      total: item ? (run.totals[item] ?? 0) : 0,
    });
    return;
  }
  if (await isChunkRecorded(run, message.phase, message.chunk)) return;
  const rows = await chunkRows(message).catch(() => undefined);
  const counters: Record<string, number> = rows
    ? Object.fromEntries(rows.counted.map(([item, count]) => [counterName(item, 'failed'), count]))
    : { [counterName(message.phase, 'failed')]: message.rows };
  const outcome = await recordChunk(run, {
    phase: message.phase,
    chunkNo: message.chunk,
    counters,
    errors: packChunkErrors(
      [
        {
          item: message.phase,
          id: `${message.after + 1}-${message.up_to}`,
          error: `chunk failed ${MAX_RECEIVES} times: ${reason}`,
        },
      ],
      errorBytesLeft(run),
    ),
  });
  await afterChunkRecorded(run, message.phase, outcome);
}

/** What the chunk's rows count, as the source has them now. */
async function chunkRows(message: ChunkMessage): Promise<{ counted: [MigrationCounted, number][] }> {
  const source = await openBuddypressSource();
  if (!source) throw new Error('no source');
  if (message.phase === 'groups') {
    return { counted: [['groups', (await source.groupsInRange(message.after, message.up_to)).length]] };
  }
  if (message.phase === 'members') {
    return { counted: [['members', (await source.membershipsInRange(message.after, message.up_to)).length]] };
  }
  const roots = await source.rootActivitiesInRange(message.after, message.up_to);
  const all = await source.commentsOfRoots(roots.map((root) => root.id));
  const byId = new Map(all.map((comment) => [comment.id, comment]));
  const comments = all.filter((comment) => !underSpam(comment, byId));
  return {
    counted: [
      ['activities', roots.length],
      ['comments', comments.length],
    ],
  };
}
