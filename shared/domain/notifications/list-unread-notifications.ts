import type { Caller } from '../auth/index.ts';
import { toNotificationResponses } from './notification-mapper.ts';
import { getNotificationStats, queryNewestUnread } from './notification-repository.ts';

/** decisions.md: at most the 100 newest unread items, and the exact unread count (from the stats item). */
export const UNREAD_LIST_LIMIT = 100;

export async function listUnreadNotifications(caller: Caller) {
  const stats = await getNotificationStats(caller.id);
  const items = await queryNewestUnread(caller.id, UNREAD_LIST_LIMIT, stats);
  return { notifications: await toNotificationResponses(items, stats), unread_count: stats.unread };
}
