import { forbidden } from '../../errors/app-error.ts';
import { deleteObjects } from '../../integrations/media-bucket.ts';
import { type Caller, isOwnerOrModerator } from '../auth/index.ts';
import { mediaNotFound } from './media-errors.ts';
import { allObjectKeys } from './media-objects.ts';
import { deleteActiveMedia, findMediaItem } from './media-write-repository.ts';

/**
 * `DELETE /media/{id}`: the uploader or a community moderator. Every stored object (original, served copy,
 * thumbnail) is removed before the item, so a failure leaves an item whose delete can be retried rather than a
 * deleted item with objects still served; the answer comes after both.
 */
export async function deleteMedia(caller: Caller, mediaId: number) {
  const item = await findMediaItem(mediaId);
  if (item?.status !== 'active') throw mediaNotFound();
  if (!isOwnerOrModerator(caller, item.user_id))
    throw forbidden('Sorry, you are not allowed to delete this media.');
  await deleteObjects(allObjectKeys(item));
  if (!(await deleteActiveMedia(item))) throw mediaNotFound();
  return { message: 'Media deleted successfully.' };
}
