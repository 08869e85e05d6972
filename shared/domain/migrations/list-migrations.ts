import { forbidden } from '../../errors/app-error.ts';
import { openBuddypressSource } from '../../integrations/buddypress/connect.ts';
import type { SourceCounts } from '../../integrations/buddypress/source.ts';
import { openBuddypressUploads } from '../../integrations/buddypress/uploads.ts';
import { MIGRATION_ITEMS, type MigrationItem } from '../../vocabulary/migrations.ts';
import { type Caller, isAdministrator } from '../auth/index.ts';
import { ITEM_LABELS } from './migration-mapper.ts';
import { isLocked } from './run-repository.ts';

/** The source's counts when it is configured, reachable and has the BuddyPress tables; else undefined. */
export async function probeSource(): Promise<SourceCounts | undefined> {
  try {
    const source = await openBuddypressSource();
    if (!source || !(await source.isInstalled())) return undefined;
    return await source.counts();
  } catch {
    return undefined;
  }
}

const estimates = (counts: SourceCounts | undefined): Record<MigrationItem, number> =>
  Object.fromEntries(MIGRATION_ITEMS.map((item) => [item, counts?.[item] ?? 0])) as Record<
    MigrationItem,
    number
  >;

/** `GET /migrations`: the one source, whether it is installed, and what it would migrate. */
export async function listMigrations(caller: Caller) {
  if (!isAdministrator(caller)) throw forbidden();
  const [counts, locked] = await Promise.all([probeSource(), isLocked()]);
  return {
    migrations: [
      {
        id: 'buddypress',
        name: 'BuddyPress',
        description: 'Groups, group members, activity updates and their comments from a BuddyPress site.',
        status: locked ? ('in_progress' as const) : ('available' as const),
        is_installed: counts !== undefined,
        supported_items: [...MIGRATION_ITEMS],
        estimated_items: estimates(counts),
      },
    ],
  };
}

/** Whether avatars and covers can be copied: the uploads location is configured and answers. */
export async function probeUploads(): Promise<'not_configured' | 'unreachable' | 'ready'> {
  try {
    const uploads = await openBuddypressUploads();
    if (!uploads) return 'not_configured';
    return (await uploads.reachable()) ? 'ready' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

const UPLOADS_WARNINGS = {
  not_configured: 'Avatars and cover images are not copied: the source upload location is not configured.',
  unreachable:
    'Avatars and cover images cannot be copied: the source upload location is configured but does not answer.',
  ready: undefined,
} as const;

/** `GET /migrations/buddypress/config`: items with counts, the default options and what will not be copied. */
export async function showMigrationConfig(caller: Caller) {
  if (!isAdministrator(caller)) throw forbidden();
  const [counts, uploads] = await Promise.all([probeSource(), probeUploads()]);
  const uploadsWarning = UPLOADS_WARNINGS[uploads];
  const warnings = [
    ...(uploadsWarning ? [uploadsWarning] : []),
    'Comments are reported under `comments`, beside `activities`.',
  ];
  if (!counts) warnings.unshift('No BuddyPress database is configured or reachable.');
  return {
    config: {
      available_items: Object.fromEntries(
        MIGRATION_ITEMS.map((item) => [item, { ...ITEM_LABELS[item], count: counts?.[item] ?? 0 }]),
      ),
      options: {
        migrate_avatars: true,
        migrate_cover_images: true,
        preserve_dates: true,
        skip_existing: true,
      },
      warnings,
    },
  };
}
