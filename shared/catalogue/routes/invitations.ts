import type { CatalogueRoute } from './route.ts';

/**
 * Invitations (contract "Invitations"). Creating sends the invitation e-mail through SES itself, synchronously
 * (`mailer`), and may notify an existing account (`mail` queue); accepting notifies the space's staff.
 */
export const INVITATION_ROUTES = [
  {
    operationId: 'createInvitation',
    method: 'POST',
    path: '/invitations',
    access: 'space_moderator',
    grants: { table: 'readWrite', mailer: true, sendTo: ['notify'] },
  },
  {
    operationId: 'acceptInvitation',
    method: 'POST',
    path: '/invitations/{token}/accept',
    access: 'authenticated',
    grants: { table: 'readWrite', sendTo: ['notify'] },
  },
] as const satisfies readonly CatalogueRoute[];
