import type { MediaObjectSource } from '../../vocabulary/media.ts';
import { planCopiedImage } from './copied-image-plan.ts';
import { cleanFileName } from './create-upload.ts';
import type { MediaItem } from './media-item.ts';
import { PUBLIC_SCOPE } from './media-scope.ts';
import { storeVerifiedFile } from './store-verified-file.ts';

export interface CopiedImage {
  /** Chosen by the caller, so a retry names the same item. */
  readonly mediaId: number;
  /** The platform user whose media lists and counters the item joins. */
  readonly uploaderId: number;
  /** The source's file name (shown as `file_name`, cleaned as an upload's). */
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly objectSource: MediaObjectSource;
  readonly objectId: number;
  /** UTC ISO; the item's `created_at` and `updated_at`. */
  readonly createdAt: string;
}

/**
 * An image copied from another system (the BuddyPress migration), checked and stored exactly as an upload is:
 * the checks and keys of `planCopiedImage` (its URL is the plan's `fileUrl`), re-encoded without metadata, with a WebP thumbnail. The objects' keys derive from the
 * media id and the bytes, so storing the same file under the same id again rewrites the same objects; a URL stays
 * unguessable to whoever does not hold the file. Answers the active item; nothing is written to the table.
 *
 * Refusals are the upload errors (400 `file_too_large`, `invalid_file_type`, `rest_invalid_param` when empty);
 * a bucket that cannot be written is 500 `upload_failed`.
 */
export async function storeCopiedImage(image: CopiedImage): Promise<MediaItem> {
  const plan = planCopiedImage(image.mediaId, image.bytes);
  const stored = await storeVerifiedFile(image.mediaId, image.bytes, plan.type, plan.token);
  return {
    id: image.mediaId,
    user_id: image.uploaderId,
    file_name: cleanFileName(image.fileName),
    ...stored,
    object_source: image.objectSource,
    object_id: image.objectId,
    // Avatars, covers and logos: shown on every summary of their member or space, whatever its privacy.
    ...PUBLIC_SCOPE,
    status: 'active',
    created_at: image.createdAt,
    updated_at: image.createdAt,
  };
}
