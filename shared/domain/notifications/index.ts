/**
 * The notifications domain's public surface. Other domains emit through `emitNotification(s)`; a route whose use
 * case emits needs `sendTo: ['notify']` in its catalogue line.
 */
export {
  emitNotification,
  emitNotifications,
  emitToSpaceStaff,
  type NotificationEmission,
  type NotificationEvent,
} from './emit-notification.ts';
export type { NotificationItem, NotificationStats, NotificationType } from './notification-item.ts';
export {
  findNotificationStatsOfUsers,
  importedNotification,
  newRecipientStats,
  raiseRecipientsNewest,
} from './notification-import.ts';
