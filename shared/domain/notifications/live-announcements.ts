import { type LiveMessage, MAX_MESSAGES_PER_EVENT, sendToMember } from '../live/index.ts';
import type { NotificationItem } from './notification-item.ts';
import { toNotificationResponses } from './notification-mapper.ts';
import { getNotificationStats } from './notification-repository.ts';

/**
 * What the notification domain announces on the live channel (the channel itself knows nothing of notifications:
 * it sends the messages it is given). Call after the write is committed (readable by its recipient). Both are best effort and never throw. The unread count may be given lazily: it is then read
 * only when the member has an open connection.
 */
export type UnreadCount = number | (() => Promise<number>);

const countOf = (unread: UnreadCount): Promise<number> =>
  typeof unread === 'number' ? Promise.resolve(unread) : unread();

/**
 * Newly stored notifications of ONE recipient: each open connection of theirs gets one `notification` message per
 * item (as listed, with the recipient's unread count), or, past `MAX_MESSAGES_PER_EVENT`, just the count.
 */
export async function announceStoredNotifications(
  recipientId: number,
  items: readonly NotificationItem[],
  unreadCount: UnreadCount,
): Promise<void> {
  const own = items.filter((item) => item.user_id === recipientId);
  if (own.length === 0) return;
  await sendToMember(recipientId, async (): Promise<LiveMessage[]> => {
    const unread = await countOf(unreadCount);
    if (own.length > MAX_MESSAGES_PER_EVENT) return [{ type: 'unread_count', unread_count: unread }];
    // The mapper applies bulk watermarks and reads the actors' profiles, as the list endpoints do.
    const responses = await toNotificationResponses(own, await getNotificationStats(recipientId));
    return responses.map((notification) => ({ type: 'notification', notification, unread_count: unread }));
  });
}

/** The recipient's unread count changed (marked read, deleted): every open connection of theirs is told. */
export async function announceUnreadCount(recipientId: number, unreadCount: UnreadCount): Promise<void> {
  await sendToMember(recipientId, async () => [
    { type: 'unread_count', unread_count: await countOf(unreadCount) },
  ]);
}

/** The unread count as stored now (strongly consistent), for callers that do not have it at hand. */
export const storedUnreadCount = (recipientId: number) => async (): Promise<number> =>
  (await getNotificationStats(recipientId)).unread;
