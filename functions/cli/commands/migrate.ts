import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import type { Caller } from '../../../shared/domain/auth/index.ts';
import { showMigrationStatus } from '../../../shared/domain/migrations/show-migration-status.ts';
import { resumeMigration } from '../../../shared/domain/migrations/resume-migration.ts';
import { startMigration } from '../../../shared/domain/migrations/start-migration.ts';
import { isAppError } from '../../../shared/errors/app-error.ts';
import { closeBuddypressSource } from '../../../shared/integrations/buddypress/connect.ts';
import { CliError, withOperatorErrors } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs } from '../parse-args.ts';

/** The operator acts with every right, as an administrator would through the API. */
const OPERATOR: Caller = {
  id: 0,
  username: 'operator',
  hostRole: 'administrator',
  communityRoles: [],
  status: 'active',
};

const yesNo = (args: ParsedArgs, name: string): boolean => {
  const value = args.options.get(name) ?? 'yes';
  if (value !== 'yes' && value !== 'no') throw new CliError(`--${name} must be yes or no.`);
  return value === 'yes';
};

/**
 * `migrate:start [--items groups,members,activities] [--skip-existing yes|no] [--preserve-dates yes|no]
 * [--avatars yes|no] [--covers yes|no]`: starts a BuddyPress migration as `POST /migrations/buddypress/start` does
 * (all items, every option on by default); the stack's workers run it.
 */
export async function migrateStartCommand(args: ParsedArgs) {
  assertKnownOptions(args, ['items', 'skip-existing', 'preserve-dates', 'avatars', 'covers']);
  const items = (args.options.get('items') ?? 'groups,members,activities')
    .split(',')
    .map((item) => item.trim());
  const options = {
    migrate_avatars: yesNo(args, 'avatars'),
    migrate_cover_images: yesNo(args, 'covers'),
    preserve_dates: yesNo(args, 'preserve-dates'),
    skip_existing: yesNo(args, 'skip-existing'),
  };
  try {
    return await withOperatorErrors(() => startMigration(OPERATOR, 'buddypress', { items, options }));
  } finally {
    await closeBuddypressSource();
  }
}

/**
 * `migrate:resume`: sends the current step of a run that stopped moving again, and its pending images
 * (resume-migration.ts); exits 1 when no run is in progress.
 */
export async function migrateResumeCommand(args: ParsedArgs) {
  assertKnownOptions(args, []);
  return withOperatorErrors(() => resumeMigration(OPERATOR, 'buddypress'));
}

type Status = Awaited<ReturnType<typeof showMigrationStatus>>;

/** The status, or the failure as the API reports it (500 `migration_failed` with `details`). */
async function readStatus(): Promise<Status | { status: 'failed'; message: string; details: unknown }> {
  try {
    return await showMigrationStatus(OPERATOR, 'buddypress');
  } catch (error) {
    if (isAppError(error) && error.code === 'migration_failed')
      return { status: 'failed', message: error.message, details: error.data.details };
    throw error;
  }
}

/**
 * `migrate:status [--follow]`: the run's status as JSON. With `--follow`, a progress bar per item is drawn on
 * standard error until the run ends, then the final status is printed; a failed run exits 1 either way.
 */
export async function migrateStatusCommand(args: ParsedArgs) {
  assertKnownOptions(args, ['follow']);
  let status = await readStatus();
  if (args.options.has('follow') && status.status === 'in_progress') status = await follow();
  if (status.status === 'failed') {
    process.stdout.write(`${JSON.stringify(status)}\n`);
    throw new CliError(`The migration failed: ${status.message}`);
  }
  return status;
}

/**
 * The bars end on what the result counts: each item's `total` (migrated + skipped + failed) of `results`, with the
 * three parts beside it, not the source's row count the running status estimated (rows the run never counts, such
 * as comments whose activity is not migrated, are in that estimate).
 */
function finishBars(byItem: Map<string, SingleBar>, status: Awaited<ReturnType<typeof readStatus>>): void {
  const results = status.status === 'completed' ? status.migration.results : {};
  for (const [item, bar] of byItem) {
    const result = (
      results as Record<string, { total: number; migrated: number; skipped: number; failed: number }>
    )[item];
    if (!result) {
      bar.stop();
      continue;
    }
    const parts = `${result.migrated} migrated, ${result.skipped} skipped, ${result.failed} failed`;
    bar.setTotal(result.total);
    bar.update(result.total, { step: parts });
    // Without a terminal the bars draw nothing: the end state still reaches standard error, one line an item.
    if (!process.stderr.isTTY) process.stderr.write(`${item}: ${result.total}/${result.total} (${parts})\n`);
  }
}

async function follow(): Promise<Awaited<ReturnType<typeof readStatus>>> {
  const bars = new MultiBar(
    {
      format: ' {item} [{bar}] {percentage}% | {value}/{total} | {step}',
      hideCursor: true,
      clearOnComplete: false,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
  const byItem = new Map<string, SingleBar>();
  try {
    for (;;) {
      const status = await readStatus();
      if (status.status !== 'in_progress') {
        finishBars(byItem, status);
        return status;
      }
      const { progress, current_step: step } = status.migration;
      for (const [item, entry] of Object.entries(progress)) {
        let bar = byItem.get(item);
        if (!bar) {
          bar = bars.create(entry.total, 0, { item: item.padEnd(10), step });
          byItem.set(item, bar);
        }
        bar.setTotal(entry.total);
        bar.update(entry.completed, { step });
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } finally {
    bars.stop();
  }
}
