import { deleteObjects, listObjects } from '../../integrations/media-bucket.ts';
import { PENDING_LIFETIME_SECONDS } from './create-upload.ts';
import { PENDING_PREFIX } from './media-objects.ts';
import { deletePendingMedia } from './media-write-repository.ts';

/**
 * The local stand-in for the cloud's expiry of never-completed uploads (the bucket's lifecycle rule on `pending/`
 * and the table's TTL, neither of which the emulators apply): every object under `pending/` older than the pending
 * lifetime is deleted, with its pending item. The walk is a listing of the bucket's `pending/` prefix, never a
 * table scan; an item whose file never came is already invisible (reads treat it as expired) and harmless.
 */
export async function sweepExpiredUploads(now = Date.now()): Promise<number> {
  let removed = 0;
  for await (const object of listObjects(PENDING_PREFIX)) {
    if (await expirePendingUpload(object, now)) removed++;
  }
  return removed;
}

/** Removes one pending upload's object and item when it is past the lifetime; answers whether it did. */
export async function expirePendingUpload(
  object: { key: string; modified: Date },
  now: number,
): Promise<boolean> {
  if (object.modified.getTime() + PENDING_LIFETIME_SECONDS * 1000 > now) return false;
  await deleteObjects([object.key]);
  const id = Number(object.key.slice(PENDING_PREFIX.length));
  // Only while still pending: an item completed meanwhile keeps its served copy (the original is no longer needed).
  if (Number.isSafeInteger(id) && id > 0) await deletePendingMedia(id);
  return true;
}
