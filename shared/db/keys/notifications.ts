import { type ItemKey, indexPartition, type Partition } from '../partition.ts';

/** Notifications (access-patterns/notifications.md). Every list sorts by `timeSort(createdAt, id)`. */
export type NotificationState = 'UNREAD' | 'READ';
export const notificationState = (isRead: boolean): NotificationState => (isRead ? 'READ' : 'UNREAD');

/** The notification itself, by id; listed in all, by-state and by-type-and-state partitions. */
export const notificationKey = (notificationId: number): ItemKey => ({
  pk: `NOTIF#${notificationId}`,
  sk: 'NOTIF',
});
/** A full copy of the notification in the same partition, listed by type (an item has one GSI1 entry). */
export const notificationTypeCopyKey = (notificationId: number): ItemKey => ({
  pk: `NOTIF#${notificationId}`,
  sk: 'NOTIF#TYPE',
});

/** GSI1 (notification): all notifications of a recipient. */
export const recipientNotifications = (userId: number): Partition =>
  indexPartition('GSI1', `USER#${userId}#NOTIFS`);
/** GSI1 (type copy): notifications of a recipient with one type. */
export const recipientNotificationsOfType = (userId: number, type: string): Partition =>
  indexPartition('GSI1', `USER#${userId}#NOTIFS#TYPE#${type}`);
/** GSI2 (notification): notifications of a recipient in one state; re-keyed when marked read. */
export const recipientNotificationsInState = (userId: number, state: NotificationState): Partition =>
  indexPartition('GSI2', `USER#${userId}#NOTIFS#${state}`);
/** GSI3 (notification): notifications of a recipient with one type in one state; re-keyed when marked read. */
export const recipientNotificationsOfTypeInState = (
  userId: number,
  type: string,
  state: NotificationState,
): Partition => indexPartition('GSI3', `USER#${userId}#NOTIFS#TYPE#${type}#${state}`);

/**
 * Notification aggregates of a recipient, flat attributes moved with ADD in the transaction of each create, mark
 * and delete: `total`, `unread`, `type:<type>`, `unread:<type>` (read counts are the differences).
 */
export const notificationStatsKey = (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'NOTIFSTATS' });

export const notificationPreferencesKey = (userId: number): ItemKey => ({
  pk: `USER#${userId}`,
  sk: 'PREFS#NOTIFICATIONS',
});

/** GSI1 on the preferences item: the members with one digest frequency (`daily`, `weekly`), by user id. */
export const digestSubscribers = (frequency: string): Partition =>
  indexPartition('GSI1', `DIGEST#${frequency}`);

/**
 * One member's digest of one period (`DIGEST#daily#2026-11-22`, `DIGEST#weekly#2026-W47`): claimed before the
 * e-mail is sent and marked sent after, so a period is mailed at most once whatever the redeliveries.
 */
export const digestRunKey = (userId: number, frequency: string, period: string): ItemKey => ({
  pk: `USER#${userId}`,
  sk: `DIGEST#${frequency}#${period}`,
});

/** Delivery record of one queued e-mail (dedupe id from the message), with a TTL: SQS may deliver twice. */
export const mailDeliveryKey = (dedupeId: string): ItemKey => ({ pk: `MAIL#${dedupeId}`, sk: 'MAIL' });
