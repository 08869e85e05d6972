import { AppError, forbidden } from '../../errors/app-error.ts';
import type { MigrationSource } from '../../vocabulary/migrations.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { completedMigration, runningMigration } from './migration-mapper.ts';
import { findRun } from './run-repository.ts';

/**
 * `GET /migrations/<source>/status`: one read of the run item; the work is the workers', never the poll's.
 * No run yet: `available` with `migration` null. A failed run is 500 `migration_failed` with its `details`.
 */
export async function showMigrationStatus(caller: Caller, source: MigrationSource) {
  if (!isAdministrator(caller)) throw forbidden();
  const run = await findRun(source, true);
  if (!run) return { status: 'available' as const, migration: null };
  if (run.status === 'failed') {
    const failure = run.failure ?? {
      message: 'The migration failed.',
      step: run.phase,
      completed: 0,
      total: 0,
    };
    throw new AppError('migration_failed', 500, failure.message, {
      details: { step: failure.step, completed: failure.completed, total: failure.total },
    });
  }
  if (run.status === 'completed') return { status: 'completed' as const, migration: completedMigration(run) };
  return { status: 'in_progress' as const, migration: runningMigration(run, nowIso()) };
}
