import type { MigrationItem } from '../../vocabulary/migrations.ts';
import { toSqlDateTime } from '../dates.ts';
import { unpackRunErrors } from './run-errors.ts';
import {
  phasesOf,
  chunksDoneName,
  chunksTotalName,
  counterName,
  counterOf,
  countedItems,
  type RunItem,
} from './run-item.ts';

export const ITEM_LABELS: Record<MigrationItem, { label: string; description: string }> = {
  groups: {
    label: 'Groups',
    description: 'BuddyPress groups become spaces (public, private; hidden → secret).',
  },
  members: {
    label: 'Members',
    description: 'Confirmed, unbanned group memberships become space members (admin, moderator, member).',
  },
  activities: {
    label: 'Activities',
    description:
      'Activity updates become feeds and their comment trees comments; spam and hidden ones stay behind.',
  },
};

const completedOf = (run: RunItem, item: string) =>
  counterOf(run, `n_${item}_migrated`) +
  counterOf(run, `n_${item}_skipped`) +
  counterOf(run, `n_${item}_failed`);

/** `3 minutes 4 seconds`, `12 seconds`. */
export function spokenDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  return [hours ? part(hours, 'hour') : '', minutes ? part(minutes, 'minute') : '', part(rest, 'second')]
    .filter(Boolean)
    .join(' ');
}

/** The running shape (start and in-progress status): per item `{total, completed, percentage}`. */
export function runningMigration(run: RunItem, now: string) {
  const items = countedItems(run.items);
  const progress = Object.fromEntries(
    items.map((item) => {
      const completed = completedOf(run, item);
      const total = Math.max(run.totals[item] ?? 0, completed);
      return [
        item,
        { total, completed, percentage: total === 0 ? 100 : Math.floor((completed * 100) / total) },
      ];
    }),
  );
  const done = items.reduce((sum, item) => sum + completedOf(run, item), 0);
  const all = items.reduce((sum, item) => sum + Math.max(run.totals[item] ?? 0, completedOf(run, item)), 0);
  const elapsed = (Date.parse(now) - Date.parse(run.started_at)) / 1000;
  return {
    id: run.run_id,
    status: 'in_progress' as const,
    started_at: toSqlDateTime(run.started_at),
    items_to_migrate: Object.fromEntries(items.map((item) => [item, run.totals[item] ?? 0])),
    progress,
    current_step: currentStep(run),
    estimated_time_remaining:
      done === 0 || elapsed <= 0 ? 'calculating' : spokenDuration(((all - done) * elapsed) / done),
  };
}

function currentStep(run: RunItem): string {
  const phases = phasesOf(run);
  const phase = phases.find((step) => step === run.phase);
  if (!phase) return run.phase;
  const total = (run as Record<string, unknown>)[chunksTotalName(phase)];
  const label = phase === 'tally' ? 'totals of members and spaces' : ITEM_LABELS[phase].label.toLowerCase();
  const unit = phase === 'tally' ? 'shard' : 'chunk';
  const chunks =
    typeof total === 'number'
      ? `, ${unit} ${counterOf(run, chunksDoneName(phase))} of ${total} done`
      : ', planning';
  return `Step ${phases.indexOf(phase) + 1} of ${phases.length}: ${label}${chunks}`;
}

/** The completed shape: per item `{total, migrated, skipped, failed}` and the kept errors. */
export function completedMigration(run: RunItem) {
  const completedAt = run.completed_at ?? run.started_at;
  return {
    id: run.run_id,
    status: 'completed' as const,
    started_at: toSqlDateTime(run.started_at),
    completed_at: toSqlDateTime(completedAt),
    duration: spokenDuration((Date.parse(completedAt) - Date.parse(run.started_at)) / 1000),
    results: Object.fromEntries(
      countedItems(run.items).map((item) => {
        const migrated = counterOf(run, counterName(item, 'migrated'));
        const skipped = counterOf(run, counterName(item, 'skipped'));
        const failed = counterOf(run, counterName(item, 'failed'));
        return [item, { total: migrated + skipped + failed, migrated, skipped, failed }];
      }),
    ),
    errors: unpackRunErrors(run),
  };
}
