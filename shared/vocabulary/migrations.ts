/** Migration sources and what they migrate (contract "Migration", decisions.md "Migrations"). */
export const MIGRATION_SOURCES = ['buddypress'] as const;
export type MigrationSource = (typeof MIGRATION_SOURCES)[number];

/** What a start may ask for, in dependency order (the phases run in this order). */
export const MIGRATION_ITEMS = ['groups', 'members', 'activities'] as const;
export type MigrationItem = (typeof MIGRATION_ITEMS)[number];

/** What results and progress report: the items, plus `comments`, which ride with `activities`. */
export const MIGRATION_COUNTED = ['groups', 'members', 'activities', 'comments'] as const;
export type MigrationCounted = (typeof MIGRATION_COUNTED)[number];

export const MIGRATION_OPTIONS = [
  'migrate_avatars',
  'migrate_cover_images',
  'preserve_dates',
  'skip_existing',
] as const;
export type MigrationOption = (typeof MIGRATION_OPTIONS)[number];

/**
 * A run's `errors` are kept, packed, until they take this many bytes of the run item (about ten thousand errors;
 * see run-errors.ts); every failure is still counted in `failed`.
 */
export const MIGRATION_ERRORS_BYTES = 128 * 1024;
