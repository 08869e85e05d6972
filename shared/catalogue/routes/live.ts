import type { CatalogueRoute } from './route.ts';

export const LIVE_ROUTES = [
  {
    operationId: 'createLiveTicket',
    method: 'POST',
    path: '/live/tickets',
    access: 'authenticated',
    grants: { table: 'readWrite' },
  },
] as const satisfies readonly CatalogueRoute[];
