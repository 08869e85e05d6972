import type { CatalogueRoute } from './route.ts';

/**
 * Profiles and follows. Lists that page read the cursor key (the page reader seals a next-page cursor whenever
 * more items follow); following emits `new_follower`, so it writes the table and sends to `mail`.
 */
export const PROFILE_ROUTES = [
  {
    operationId: 'getMyProfile',
    method: 'GET',
    path: '/profile/me',
    access: 'authenticated',
    grants: { table: 'read' },
  },
  {
    operationId: 'updateMyProfile',
    method: 'PUT',
    path: '/profile/me',
    access: 'owner',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'getProfile',
    method: 'GET',
    path: '/profile/{username}',
    access: 'authenticated',
    grants: { table: 'read' },
  },
  {
    operationId: 'listProfileComments',
    method: 'GET',
    path: '/profile/{username}/comments',
    access: 'authenticated',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'listProfileSpaces',
    method: 'GET',
    path: '/profile/{username}/spaces',
    access: 'privacy_gated',
    grants: { table: 'read' },
  },
  {
    operationId: 'listProfileMedia',
    method: 'GET',
    path: '/profile/{username}/media',
    access: 'authenticated',
    // Signs short-lived GET URLs of `private/` files (media of private and secret spaces) the caller may see.
    grants: { table: 'read', secrets: ['cursorKey'], bucket: { read: ['private/'] } },
  },
  {
    operationId: 'followMember',
    method: 'POST',
    path: '/profile/{username}/follow',
    access: 'authenticated',
    grants: { table: 'readWrite', sendTo: ['notify'] },
  },
  {
    operationId: 'unfollowMember',
    method: 'DELETE',
    path: '/profile/{username}/follow',
    access: 'authenticated',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'listFollowers',
    method: 'GET',
    path: '/profile/{username}/followers',
    access: 'authenticated',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'listFollowings',
    method: 'GET',
    path: '/profile/{username}/followings',
    access: 'authenticated',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
] as const satisfies readonly CatalogueRoute[];
