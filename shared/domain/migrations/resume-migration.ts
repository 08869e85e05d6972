import { AppError, forbidden } from '../../errors/app-error.ts';
import { publish } from '../../integrations/queue-publisher.ts';
import { MIGRATION_ITEMS, type MigrationSource } from '../../vocabulary/migrations.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { planMessage } from './advance-run.ts';
import type { RunPhase } from './run-item.ts';
import { resendPendingImages } from './resend-pending-images.ts';
import { findRun } from './run-repository.ts';

const STEPS: readonly string[] = [...MIGRATION_ITEMS, 'tally'];

/**
 * The operator's way out of a run that stopped moving: its messages were lost (a queue purged) or a worker died on
 * a message's last delivery, so a chunk reached the DLQ without being counted, or an `images` message without its
 * owners being recorded (their pending markers then hold the tally back for good). Sends the images of every
 * owner still pending again (from their markers), then the plan of the run's current step: both are idempotent
 * (chunks and owners already counted are only checked, the others run again with fresh deliveries), so resuming a
 * run that was moving costs a re-check and changes no count.
 */
export async function resumeMigration(caller: Caller, source: MigrationSource) {
  if (!isAdministrator(caller)) throw forbidden();
  const run = await findRun(source, true);
  if (run?.status !== 'in_progress' || !STEPS.includes(run.phase))
    throw new AppError('migration_not_running', 409, 'No migration is running.');
  const images = await resendPendingImages(run.run_id);
  await publish('migrations', planMessage(run, run.phase as RunPhase));
  return {
    message: 'The current step of the migration was sent again.',
    id: run.run_id,
    step: run.phase,
    images_resent: images,
  };
}
