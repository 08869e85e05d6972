/** The live channel's public surface: what the notification domain calls once a change is committed. */
export {
  announceStoredNotifications,
  announceUnreadCount,
  storedUnreadCount,
  type UnreadCount,
} from './announce.ts';
