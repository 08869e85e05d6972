import { AppError, forbidden } from '../../errors/app-error.ts';
import { publish } from '../../integrations/queue-publisher.ts';
import { MIGRATION_ITEMS, type MigrationSource } from '../../vocabulary/migrations.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { planMessage } from './advance-run.ts';
import type { RunPhase } from './run-item.ts';
import { findRun } from './run-repository.ts';

const STEPS: readonly string[] = [...MIGRATION_ITEMS, 'tally'];

/**
 * The operator's way out of a run that stopped moving: its messages were lost (a queue purged) or a worker died on
 * a chunk's last delivery, so the chunk reached the DLQ without being counted. Sends the plan of the run's current
 * step again: planning is idempotent (chunks already counted are only checked, the others run again with fresh
 * deliveries), so resuming a run that was moving costs a re-check and changes no count.
 */
export async function resumeMigration(caller: Caller, source: MigrationSource) {
  if (!isAdministrator(caller)) throw forbidden();
  const run = await findRun(source, true);
  if (run?.status !== 'in_progress' || !STEPS.includes(run.phase))
    throw new AppError('migration_not_running', 409, 'No migration is running.');
  await publish('migrations', planMessage(run, run.phase as RunPhase));
  return { message: 'The current step of the migration was sent again.', id: run.run_id, step: run.phase };
}
