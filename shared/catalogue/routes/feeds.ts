import type { CatalogueRoute } from './route.ts';

/**
 * Feeds, comments and reactions. Routes whose use case emits notifications (mentions, comments, likes) send to the
 * `mail` queue; lists read the cursor key (the page reader seals a next-page cursor whenever more items follow,
 * even where paginator C does not show it).
 */
export const FEED_ROUTES = [
  {
    operationId: 'listFeeds',
    method: 'GET',
    path: '/feeds',
    access: 'authenticated',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'createFeed',
    method: 'POST',
    path: '/feeds',
    access: 'authenticated',
    grants: { table: 'readWrite', sendTo: ['notify'] },
  },
  {
    operationId: 'getFeed',
    method: 'GET',
    path: '/feeds/{feed_id}',
    access: 'authenticated',
    grants: { table: 'read' },
  },
  {
    operationId: 'updateFeed',
    method: 'PUT',
    path: '/feeds/{feed_id}',
    access: 'authenticated',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'deleteFeed',
    method: 'DELETE',
    path: '/feeds/{feed_id}',
    access: 'authenticated',
    grants: { table: 'readWrite', sendTo: ['feeds'] },
  },
  {
    operationId: 'listFeedComments',
    method: 'GET',
    path: '/feeds/{feed_id}/comments',
    access: 'authenticated',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'createFeedComment',
    method: 'POST',
    path: '/feeds/{feed_id}/comments',
    access: 'authenticated',
    grants: { table: 'readWrite', sendTo: ['notify'] },
  },
  {
    operationId: 'listFeedReactions',
    method: 'GET',
    path: '/feeds/{feed_id}/reactions',
    access: 'authenticated',
    grants: { table: 'read', secrets: ['cursorKey'] },
    entry: 'generated',
  },
  {
    operationId: 'reactToFeed',
    method: 'POST',
    path: '/feeds/{feed_id}/react',
    access: 'authenticated',
    grants: { table: 'readWrite', sendTo: ['notify'] },
  },
] as const satisfies readonly CatalogueRoute[];
