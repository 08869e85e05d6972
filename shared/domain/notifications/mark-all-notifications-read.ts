import type { Caller } from '../auth/index.ts';
import { announceUnreadCount, storedUnreadCount } from './live-announcements.ts';
import { nowIso } from '../dates.ts';
import { markAllRead } from './notification-state-repository.ts';
import { requestTidying } from './request-tidying.ts';

/**
 * Marks every notification of the caller read in one write, whatever their number: the stats item's read
 * watermark moves to the newest notification and the unread counters to 0 (every read path honours the
 * watermark), then the tidy worker flips the items at its own pace. `marked_count` is how many were unread.
 */
export async function markAllNotificationsRead(caller: Caller) {
  const markedAt = nowIso();
  const { marked, watermark } = await markAllRead(caller.id, markedAt);
  if (marked > 0 && watermark !== undefined) {
    await requestTidying({ user_id: caller.id, action: 'mark_read', watermark, read_at: markedAt });
  }
  // Everything up to the watermark is read; a notification stored since counts, so the count is re-read.
  await announceUnreadCount(caller.id, storedUnreadCount(caller.id));
  return { message: 'All notifications have been marked as read.', data: { marked_count: marked } };
}
