import { forbidden, isAppError } from '../../errors/app-error.ts';
import { deleteObjects, objectSize, readObject } from '../../integrations/media-bucket.ts';
import { type Caller, isOwner } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { PENDING_LIFETIME_SECONDS } from './create-upload.ts';
import { mediaNotFound, uploadMissing } from './media-errors.ts';
import type { MediaItem } from './media-item.ts';
import { toUploadedMedia } from './media-mapper.ts';
import { withServedUrls } from './media-urls.ts';
import { pendingObjectKey } from './media-objects.ts';
import { activateMedia, deletePendingMedia, findMediaItem } from './media-write-repository.ts';
import { storeVerifiedFile } from './store-verified-file.ts';
import { checkSize, verifyFile } from './verify-file.ts';

const answer = async (item: MediaItem) => ({
  message: 'File uploaded successfully.',
  data: toUploadedMedia(await withServedUrls(item)),
});

/** A pending item past its lifetime is gone, whether or not the TTL sweeper has removed it yet. */
export const isExpiredPending = (item: MediaItem, now = Date.now()): boolean =>
  item.status === 'pending' && Date.parse(item.created_at) + PENDING_LIFETIME_SECONDS * 1000 <= now;

/**
 * `POST /media/{id}/complete`: verifies what was posted to the presigned URL, never trusting the client (nor the
 * emulator, which does not enforce POST policies): the size from storage, the real type from the magic bytes,
 * equal to the declared type. A refused object and its pending item are deleted before the error is answered.
 * Completing an active item again answers it unchanged.
 */
export async function completeUpload(caller: Caller, mediaId: number) {
  const item = await findMediaItem(mediaId);
  if (!item || isExpiredPending(item)) throw mediaNotFound();
  if (!isOwner(caller, item.user_id)) throw forbidden('Only the uploader can complete an upload.');
  if (item.status === 'active') return answer(item);

  const pendingKey = pendingObjectKey(item.id);
  const size = await objectSize(pendingKey);
  if (size === undefined) throw uploadMissing();
  const refuse = async (error: unknown): Promise<never> => {
    // Only a refused file is deleted; after a storage failure (500) the client may complete again.
    if (isAppError(error) && error.status === 400) {
      await deleteObjects([pendingKey]);
      await deletePendingMedia(item.id);
    }
    throw error;
  };

  let stored: Awaited<ReturnType<typeof storeVerifiedFile>>;
  try {
    checkSize(size);
    const bytes = await readObject(pendingKey);
    const type = await verifyFile(bytes, item.file_type);
    // Media of a private or secret space go where only signed URLs reach (media-objects.ts).
    stored = await storeVerifiedFile(item.id, bytes, type, undefined, {
      private: item.visibility === 'members',
    });
  } catch (error) {
    return refuse(error);
  }

  const active: MediaItem = { ...item, ...stored, status: 'active', updated_at: nowIso() };
  if (!(await activateMedia(active, 'pending'))) {
    // A concurrent completion won (or the item expired): drop this copy, answer what is stored now.
    await deleteObjects([stored.s3_key, ...(stored.thumbnail_key ? [stored.thumbnail_key] : [])]);
    const current = await findMediaItem(mediaId);
    if (current?.status === 'active') return answer(current);
    throw mediaNotFound();
  }
  // The original is no longer needed: the served copy is the verified (and, for images, re-encoded) one.
  await deleteObjects([pendingKey]);
  return answer(active);
}
