import { counterUpdate } from '../../db/counters.ts';
import { IdTaken } from '../../db/ids.ts';
import { mediaKey } from '../../db/keys/media.ts';
import { userStatsKey } from '../../db/keys/users.ts';
import { getItem } from '../../db/reads.ts';
import { deleteAction, putAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import { type MediaItem, MediaItemSchema, mediaCounts, storedMedia } from './media-item.ts';

/**
 * Writes of media items (the member media list reads them through the profiles side). Every write is one
 * transaction, so an item is listed exactly when its uploader's counters count it.
 */

/** One media item by id, strongly consistent (decisions follow it: complete, delete). */
export const findMediaItem = (mediaId: number): Promise<MediaItem | undefined> =>
  getItem(mediaKey(mediaId), MediaItemSchema, { consistent: true });

const IS_PENDING = {
  ConditionExpression: '#status = :pending',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':pending': 'pending' },
};
const IS_ACTIVE = {
  ConditionExpression: '#status = :active',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':active': 'active' },
};

/**
 * A presigned upload waiting for its file: not listed, not counted, gone by TTL if never completed. Its only
 * condition is the id guard: `IdTaken` when the id is already taken.
 */
export async function putPendingMedia(item: MediaItem, expiresAtEpoch: number): Promise<void> {
  const outcome = await transactWriteIfConditionsHold([
    putAction(storedMedia(item, { expiresAtEpoch }), { ifAbsent: true }),
  ]);
  if (!outcome.written) throw new IdTaken(item.id);
}

/**
 * Stores an active item (listed, TTL gone) and counts it, in one transaction. `from: 'pending'` completes a
 * presigned upload and holds only while the item is still pending (a concurrent completion or an expiry loses);
 * `from: 'none'` creates it (multipart path). Answers whether it was written.
 */
export async function activateMedia(item: MediaItem, from: 'pending' | 'none'): Promise<boolean> {
  const put = putAction(
    storedMedia(item),
    from === 'pending' ? { condition: IS_PENDING } : { ifAbsent: true },
  );
  const outcome = await transactWriteIfConditionsHold([
    put,
    counterUpdate(userStatsKey(item.user_id), mediaCounts(item)),
  ]);
  return outcome.written;
}

/** Removes a pending item (its file was refused or never came); false when it is no longer pending. */
export async function deletePendingMedia(mediaId: number): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([deleteAction(mediaKey(mediaId), IS_PENDING)]);
  return outcome.written;
}

/** Removes an active item and uncounts it; false when it was already gone (a concurrent delete). */
export async function deleteActiveMedia(item: MediaItem): Promise<boolean> {
  const uncount = Object.fromEntries(Object.entries(mediaCounts(item)).map(([name, n]) => [name, -n]));
  const outcome = await transactWriteIfConditionsHold([
    deleteAction(mediaKey(item.id), IS_ACTIVE),
    counterUpdate(userStatsKey(item.user_id), uncount),
  ]);
  return outcome.written;
}
