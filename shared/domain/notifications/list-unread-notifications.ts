import type { Caller } from '../auth/index.ts';
import { toNotificationResponses } from './notification-mapper.ts';
import { getNotificationStats, queryNewestUnread } from './notification-repository.ts';

/** decisions.md: at most the 100 newest unread items, and the exact unread count (from the stats item). */
export const UNREAD_LIST_LIMIT = 100;

export async function listUnreadNotifications(caller: Caller) {
  const [stats, items] = await Promise.all([
    getNotificationStats(caller.id),
    queryNewestUnread(caller.id, UNREAD_LIST_LIMIT),
  ]);
  return { notifications: await toNotificationResponses(items), unread_count: stats.unread };
}
