import type { Caller } from '../auth/index.ts';
import { announceUnreadCount, storedUnreadCount } from './live-announcements.ts';
import { deleteAllInBulk } from './notification-state-repository.ts';
import { requestTidying } from './request-tidying.ts';

/**
 * Deletes every notification of the caller in one write, whatever their number: the stats item's delete
 * watermark moves to the newest notification and every counter to 0 (no read path shows what it covers), then the
 * tidy worker removes the items. `deleted_count` is how many there were.
 */
export async function deleteAllNotifications(caller: Caller) {
  const { deleted, watermark } = await deleteAllInBulk(caller.id);
  if (deleted > 0 && watermark !== undefined) {
    await requestTidying({ user_id: caller.id, action: 'purge', watermark });
  }
  await announceUnreadCount(caller.id, storedUnreadCount(caller.id));
  return { message: 'All notifications have been deleted.', data: { deleted_count: deleted } };
}
