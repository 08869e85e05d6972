import { randomUUID } from 'node:crypto';
import { AppError, forbidden } from '../../errors/app-error.ts';
import { publish } from '../../integrations/queue-publisher.ts';
import {
  MIGRATION_ITEMS,
  type MigrationItem,
  type MigrationOption,
  type MigrationSource,
} from '../../vocabulary/migrations.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { planMessage } from './advance-run.ts';
import { probeSource } from './list-migrations.ts';
import { runningMigration } from './migration-mapper.ts';
import { firstPhase, type RunItem } from './run-item.ts';
import { finishRun, insertRunWithLock, isLocked } from './run-repository.ts';

const inProgress = () => new AppError('migration_in_progress', 409, 'A migration is already running.');

/** `items`: a non-empty list of distinct known items; anything else is 400 `invalid_items`. */
export function validItems(items: unknown): MigrationItem[] {
  const known = new Set<string>(MIGRATION_ITEMS);
  if (
    !Array.isArray(items) ||
    items.length === 0 ||
    items.some((item) => typeof item !== 'string' || !known.has(item))
  )
    throw new AppError(
      'invalid_items',
      400,
      `items must be a non-empty list of: ${MIGRATION_ITEMS.join(', ')}.`,
    );
  if (new Set(items).size !== items.length)
    throw new AppError('invalid_items', 400, 'items must not repeat.');
  return items as MigrationItem[];
}

/**
 * `POST /migrations/<source>/start`: the lock is a conditional write, so of concurrent starts exactly one runs
 * and the others are 409 `migration_in_progress`. The run records the estimated totals, then its first phase's
 * plan goes to the queue; the workers do the rest.
 */
export async function startMigration(
  caller: Caller,
  source: MigrationSource,
  body: { items?: unknown; options: Record<MigrationOption, boolean> },
) {
  if (!isAdministrator(caller)) throw forbidden();
  const items = validItems(body.items);
  if (await isLocked()) throw inProgress();
  const counts = await probeSource();
  if (!counts)
    throw new AppError('migration_failed', 500, 'No BuddyPress database is configured or reachable.', {
      details: { step: 'connect', completed: 0, total: 0 },
    });
  const ordered = MIGRATION_ITEMS.filter((item) => items.includes(item));
  const run: RunItem = {
    run_id: randomUUID(),
    source,
    status: 'in_progress',
    items: ordered,
    options: body.options,
    totals: { ...counts },
    phase: firstPhase({ items: ordered }),
    started_at: nowIso(),
    started_by: caller.id,
    errors: [],
    errors_packed: [],
    errors_bytes: 0,
  };
  if (!(await insertRunWithLock(run))) throw inProgress();
  try {
    await publish('migrations', planMessage(run, firstPhase(run)));
  } catch (error) {
    await finishRun(run, 'failed', nowIso(), {
      message: 'The migration could not be queued.',
      step: run.phase,
      completed: 0,
      total: 0,
    });
    throw error;
  }
  const { progress, ...running } = runningMigration(run, run.started_at);
  // On start, `progress` is item → 0 (the contract's start shape); the status answers the full objects.
  const zero = Object.fromEntries(Object.keys(progress).map((item) => [item, 0]));
  return { message: 'Migration started.', migration: { ...running, progress: zero } };
}
