import { queueNamed } from '../../catalogue/queues.ts';
import { publish } from '../../integrations/queue-publisher.ts';
import type { MigrationItem } from '../../vocabulary/migrations.ts';
import { nowIso } from '../dates.ts';
import {
  chunksDoneName,
  chunksTotalName,
  counterOf,
  phaseAfter,
  phasesOf,
  type RunItem,
  type RunPhase,
} from './run-item.ts';
import type { RecordOutcome } from './record-chunk.ts';
import { advancePhase, findRun, finishRun } from './run-repository.ts';

export const planMessage = (run: RunItem, phase: RunPhase) =>
  ({ kind: 'plan', source: 'buddypress', run_id: run.run_id, phase }) as const;

/**
 * A plan runs within one worker invocation: a phase still unplanned this long after it began had its plan message
 * lost (its sender died before sending it), not merely slow.
 */
const PLAN_LOST_AFTER_MS = queueNamed('migrations').timeoutSeconds * 1000;

/**
 * What follows a chunk's record (recordChunk): the delivery that counted a phase's last chunk moved the run to the
 * next phase in that transaction and now plans it; one whose record could not tell reads the run afresh.
 */
export async function afterChunkRecorded(
  run: RunItem,
  phase: MigrationItem,
  outcome: RecordOutcome,
): Promise<void> {
  if (outcome === 'counted_last') await publish('migrations', planMessage(run, phaseAfter(run, phase)));
  else if (outcome === 'counted_unsure') await advanceIfPhaseDone(run.source, run.run_id, phase);
}

/**
 * Called after a tally shard is counted, after a plan of no chunks, and on every redelivery of a counted chunk:
 * when the phase has all its chunks counted, the one caller that wins the conditional phase change plans the next phase, or ends the run after the
 * tally. If that caller dies between the two, a redelivery coming once the plan must have been lost plans it
 * (planning twice only re-sends chunks, which count once; while the plan may still be running, redeliveries leave
 * it alone, or each would queue every chunk of the phase again). `migrate:resume` does the same on demand.
 */
export async function advanceIfPhaseDone(
  source: string,
  runId: string,
  phase: RunPhase,
  /** The run, when the caller read it (consistently) after its last write: saves reading it again. */
  fresh?: RunItem,
): Promise<void> {
  const run = fresh ?? (await findRun(source, true));
  if (!run || run.run_id !== runId || run.status !== 'in_progress') return;
  const phases = phasesOf(run);
  const next = phases[phases.indexOf(phase) + 1];
  if (run.phase === phase) {
    const total = (run as Record<string, unknown>)[chunksTotalName(phase)];
    if (typeof total !== 'number' || counterOf(run, chunksDoneName(phase)) < total) return;
    if (!next) {
      await finishRun(run, 'completed', nowIso());
      return;
    }
    if (await advancePhase(run, phase, next, nowIso())) await publish('migrations', planMessage(run, next));
    return;
  }
  if (next && run.phase === next && (run as Record<string, unknown>)[chunksTotalName(next)] === undefined) {
    const began = Date.parse(run.phase_started_at ?? run.started_at);
    if (Date.parse(nowIso()) - began > PLAN_LOST_AFTER_MS)
      await publish('migrations', planMessage(run, next));
  }
}
