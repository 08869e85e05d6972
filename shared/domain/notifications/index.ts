/**
 * The notifications domain's public surface. Other domains emit through `emitNotification(s)`; a route whose use
 * case emits needs `sendTo: ['notify']` in its catalogue line.
 */
export {
  emitNotification,
  emitNotifications,
  type NotificationEmission,
  type NotificationEvent,
} from './emit-notification.ts';
export {
  type NotificationItem,
  type NotificationStats,
  type NotificationType,
  notificationCounts,
  storedNotification,
  storedNotificationTypeCopy,
} from './notification-item.ts';
export {
  findNotificationStatsOfUsers,
  getNotificationStats,
  raiseNewestCreatedAt,
} from './notification-repository.ts';
export { type NotificationResponse, toNotificationResponses } from './notification-mapper.ts';
