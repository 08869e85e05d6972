import type { CatalogueRoute } from './route.ts';

/** Portal-wide settings (contract "General settings"): community admins and host super admins. */
export const SETTINGS_ROUTES = [
  {
    operationId: 'getGeneralSettings',
    method: 'GET',
    path: '/admin/general',
    access: 'community_admin',
    grants: { table: 'read' },
  },
] as const satisfies readonly CatalogueRoute[];
