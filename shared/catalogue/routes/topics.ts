import type { CatalogueRoute } from './route.ts';

/** Topics administration (contract "Topics (PRO)"): administrators only. */
export const TOPIC_ROUTES = [
  {
    operationId: 'listTopics',
    method: 'GET',
    path: '/admin/topics',
    access: 'administrator',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'createTopic',
    method: 'POST',
    path: '/admin/topics',
    access: 'administrator',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'updateTopic',
    method: 'PUT',
    path: '/admin/topics/{topic_id}',
    access: 'administrator',
    grants: { table: 'readWrite' },
  },
  {
    // Removes the topic (reads treat it as gone at once) and leaves detaching its feeds to the `topics` worker:
    // the answer's time does not grow with the feeds carrying it.
    operationId: 'deleteTopic',
    method: 'DELETE',
    path: '/admin/topics/{topic_id}',
    access: 'administrator',
    grants: { table: 'readWrite', sendTo: ['topics'] },
  },
  {
    operationId: 'getTopicsConfig',
    method: 'GET',
    path: '/admin/topics/config',
    access: 'administrator',
    grants: { table: 'read' },
  },
  {
    operationId: 'updateTopicsConfig',
    method: 'POST',
    path: '/admin/topics/config',
    access: 'administrator',
    grants: { table: 'readWrite' },
  },
] as const satisfies readonly CatalogueRoute[];
