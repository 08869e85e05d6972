import * as v from 'valibot';
import { MIGRATION_ITEMS } from '../vocabulary/migrations.ts';
import { integer, sqlDateTime } from './fields.ts';
import { defineOperation, errorOutcome } from './operation.ts';

/**
 * Migrations from BuddyPress (contract "Migrations (Admin only)", decisions.md "Migrations"). Administrators
 * only; errors carry only `code` and `message` (`migration_failed` adds `details`). Timestamps are
 * `YYYY-MM-DD HH:MM:SS` UTC. What is counted: `groups` (spaces), `members` (memberships: distinct confirmed,
 * unbanned (group, user) pairs whose group and user exist) and `activities` (migrated `activity_update` rows);
 * their comments are reported under an extra `comments` key.
 */
const TAGS = ['Migrations'];
const FORBIDDEN = errorOutcome(403, 'rest_forbidden', 'The caller is not an administrator.');
const INVALID = errorOutcome(
  400,
  'rest_invalid_param',
  'An option is not a boolean, or the body has unknown fields.',
);
const FAILED = errorOutcome(
  500,
  'migration_failed',
  'The run failed (or the source is not configured or reachable); `details` has `step`, `completed`, `total`.',
);

const itemCounts = v.record(v.string(), integer());
const runningShape = {
  id: v.string(),
  status: v.literal('in_progress'),
  started_at: sqlDateTime(),
  items_to_migrate: itemCounts,
  current_step: v.string(),
  estimated_time_remaining: v.string(),
};
const progressEntry = v.object({ total: integer(), completed: integer(), percentage: integer() });
const runningMigration = v.object({ ...runningShape, progress: v.record(v.string(), progressEntry) });
const completedMigration = v.object({
  id: v.string(),
  status: v.literal('completed'),
  started_at: sqlDateTime(),
  completed_at: sqlDateTime(),
  duration: v.string(),
  results: v.record(
    v.string(),
    v.object({ total: integer(), migrated: integer(), skipped: integer(), failed: integer() }),
  ),
  errors: v.array(v.object({ item: v.string(), id: v.string(), error: v.string() })),
});

export const listMigrations = defineOperation({
  operationId: 'listMigrations',
  summary: 'Migration sources (administrators)',
  description:
    '`is_installed`: a BuddyPress database is configured, reachable and has the BuddyPress tables. `status` is ' +
    '`in_progress` while a run holds the lock, else `available`. `estimated_items` counts what a run would migrate.',
  tags: TAGS,
  response: v.object({
    migrations: v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        description: v.string(),
        status: v.picklist(['available', 'in_progress']),
        is_installed: v.boolean(),
        supported_items: v.array(v.picklist(MIGRATION_ITEMS)),
        estimated_items: itemCounts,
      }),
    ),
  }),
  errors: [FORBIDDEN],
  errorEnvelope: 'bare',
});

export const getMigrationConfig = defineOperation({
  operationId: 'getBuddypressMigrationConfig',
  summary: 'What a BuddyPress migration would do (administrators)',
  description: 'Items with their counts, the options with their defaults (all true) and warnings.',
  tags: TAGS,
  response: v.object({
    config: v.object({
      available_items: v.record(
        v.string(),
        v.object({ label: v.string(), count: integer(), description: v.string() }),
      ),
      options: v.record(v.string(), v.boolean()),
      warnings: v.array(v.string()),
    }),
  }),
  errors: [FORBIDDEN],
  errorEnvelope: 'bare',
});

const option = () => v.optional(v.boolean('must be a boolean'), true);

export const startMigration = defineOperation({
  operationId: 'startBuddypressMigration',
  summary: 'Start a BuddyPress migration (administrators)',
  description:
    '`items`: a non-empty list of distinct `groups`, `members`, `activities` (anything else: 400 ' +
    '`invalid_items`); they run in that order. Options default to true. One run at a time: concurrent starts ' +
    'get one success and 409 `migration_in_progress` for the others. `progress` starts at 0 per item.',
  tags: TAGS,
  body: v.strictObject({
    items: v.optional(v.unknown()),
    options: v.optional(
      v.strictObject({
        migrate_avatars: option(),
        migrate_cover_images: option(),
        preserve_dates: option(),
        skip_existing: option(),
      }),
      {},
    ),
  }),
  response: v.object({
    message: v.string(),
    migration: v.object({ ...runningShape, progress: itemCounts }),
  }),
  errors: [
    { status: 400, code: 'invalid_items', description: '`items` missing, empty, repeated or unknown.' },
    INVALID,
    FORBIDDEN,
    { status: 409, code: 'migration_in_progress', description: 'Another migration is running.' },
    FAILED,
  ],
  errorEnvelope: 'bare',
});

export const getMigrationStatus = defineOperation({
  operationId: 'getBuddypressMigrationStatus',
  summary: 'The BuddyPress migration run (administrators)',
  description:
    'One read. `in_progress` with `progress` per item (`total`, `completed`, `percentage`), `current_step` and ' +
    '`estimated_time_remaining` from the measured rate; `completed` with `results` per item and `errors` (kept ' +
    'up to about ten thousand; every one is counted in `failed`); `available` with `migration` null before any run. A ' +
    'failed run is 500 `migration_failed`.',
  tags: TAGS,
  response: v.variant('status', [
    v.object({ status: v.literal('available'), migration: v.null() }),
    v.object({ status: v.literal('in_progress'), migration: runningMigration }),
    v.object({ status: v.literal('completed'), migration: completedMigration }),
  ]),
  errors: [FORBIDDEN, FAILED],
  errorEnvelope: 'bare',
});
