import type { CatalogueRoute } from './route.ts';

/** Spaces (contract "Space user search"): who could be added to a space. */
export const SPACE_ROUTES = [
  {
    operationId: 'searchSpaceUsers',
    method: 'GET',
    path: '/spaces/users/search',
    access: 'space_add_member',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
] as const satisfies readonly CatalogueRoute[];
