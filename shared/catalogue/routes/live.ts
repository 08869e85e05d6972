import type { CatalogueRoute } from './route.ts';

export const LIVE_ROUTES = [
  {
    operationId: 'createLiveTicket',
    method: 'POST',
    path: '/live/tickets',
    access: 'authenticated',
    entry: 'functions/http/live/create-live-ticket.ts',
    grants: { table: 'readWrite' },
  },
] as const satisfies readonly CatalogueRoute[];
