import type { CatalogueRoute } from './route.ts';

export const NOTIFICATION_ROUTES = [
  {
    operationId: 'listNotifications',
    method: 'GET',
    path: '/notifications',
    access: 'owner',
    grants: { table: 'read', secrets: ['cursorKey'] },
  },
  {
    operationId: 'listUnreadNotifications',
    method: 'GET',
    path: '/notifications/unread',
    access: 'owner',
    grants: { table: 'read' },
  },
  {
    operationId: 'markNotificationRead',
    method: 'POST',
    path: '/notifications/{id}/read',
    access: 'owner',
    grants: { table: 'readWrite', live: 'post' },
  },
  {
    operationId: 'markAllNotificationsRead',
    method: 'POST',
    path: '/notifications/mark-all-read',
    access: 'owner',
    grants: { table: 'readWrite', sendTo: ['notifications'], live: 'post' },
  },
  {
    operationId: 'deleteNotification',
    method: 'DELETE',
    path: '/notifications/{id}',
    access: 'owner',
    grants: { table: 'readWrite', live: 'post' },
  },
  {
    operationId: 'deleteAllNotifications',
    method: 'DELETE',
    path: '/notifications/delete-all',
    access: 'owner',
    grants: { table: 'readWrite', sendTo: ['notifications'], live: 'post' },
  },
  {
    operationId: 'getNotificationPreferences',
    method: 'GET',
    path: '/profile/notification-preferences',
    access: 'authenticated',
    grants: { table: 'read' },
  },
  {
    operationId: 'updateNotificationPreferences',
    method: 'PUT',
    path: '/profile/notification-preferences',
    access: 'authenticated',
    grants: { table: 'readWrite' },
  },
  {
    operationId: 'unsubscribeFromDigest',
    method: 'GET',
    path: '/notifications/digest/unsubscribe',
    access: 'public',
    grants: { table: 'readWrite', secrets: ['cursorKey'] },
  },
] as const satisfies readonly CatalogueRoute[];
