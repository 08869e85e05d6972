import type { CatalogueRoute } from './route.ts';

/** Migrations (contract "Migrations (Admin only)"): administrators only; the workers do the work. */
export const MIGRATION_ROUTES = [
  {
    operationId: 'listMigrations',
    method: 'GET',
    path: '/migrations',
    access: 'administrator',
    grants: { table: 'read', secrets: ['buddypressSource'] },
    // Reads the source's counts: the driver is imported only when a source is configured.
    nativeModules: ['mysql2'],
  },
  {
    operationId: 'getBuddypressMigrationConfig',
    method: 'GET',
    path: '/migrations/buddypress/config',
    access: 'administrator',
    // Lists the source's uploads bucket (when it is one) to say whether avatars and covers can be copied.
    grants: { secrets: ['buddypressSource'], sourceUploads: 'read' },
    nativeModules: ['mysql2'],
  },
  {
    operationId: 'startBuddypressMigration',
    method: 'POST',
    path: '/migrations/buddypress/start',
    access: 'administrator',
    grants: { table: 'readWrite', sendTo: ['migrations'], secrets: ['buddypressSource'] },
    nativeModules: ['mysql2'],
  },
  {
    // One GetItem: the work happens in the `migrations` workers, never in the poll.
    operationId: 'getBuddypressMigrationStatus',
    method: 'GET',
    path: '/migrations/buddypress/status',
    access: 'administrator',
    grants: { table: 'read' },
  },
] as const satisfies readonly CatalogueRoute[];
