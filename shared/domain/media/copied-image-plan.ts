import { createHash } from 'node:crypto';
import { publicObjectUrl } from '../../integrations/media-bucket.ts';
import type { MediaType } from '../../vocabulary/media.ts';
import { imageTypeOf } from './image-signature.ts';
import { invalidFileType } from './media-errors.ts';
import { type ServedKeys, servedObjectKeys } from './media-objects.ts';
import { checkSize } from './verify-file.ts';

/** Where an image copied from another system is stored and served, decided before it is re-encoded. */
export interface CopiedImagePlan {
  readonly type: MediaType;
  /** Pins the object folder (`media/<id>-<token>`): a token of the id and the bytes, 96 bits like a random one. */
  readonly token: string;
  readonly keys: ServedKeys;
  /** The served file's URL: what the copy's `file_url` will be once stored. */
  readonly fileUrl: string;
}

/**
 * Checks an image copied from another system as an upload is checked before decoding (size ≤ 10 MB, not empty, a
 * JPEG, PNG, GIF or WebP image by its magic bytes: the name's extension is not trusted either way) and names its
 * objects, without decoding it: the BuddyPress migration's chunk names the copies (and sets their URLs on the
 * users and spaces it writes) while another worker, which loads sharp, stores them (store-copied-image.ts). The
 * keys derive from the media id and the bytes, so the same file under the same id always gets the same URL.
 *
 * Refusals are the upload errors (400 `file_too_large`, `invalid_file_type`, `rest_invalid_param` when empty).
 */
export function planCopiedImage(mediaId: number, bytes: Uint8Array): CopiedImagePlan {
  checkSize(bytes.length);
  const type = imageTypeOf(bytes);
  if (type === undefined) throw invalidFileType('The file is not a JPEG, PNG, GIF or WebP image.');
  const token = createHash('sha256').update(`${mediaId}\0`).update(bytes).digest('base64url').slice(0, 16);
  const keys = servedObjectKeys(mediaId, type, token);
  return { type, token, keys, fileUrl: publicObjectUrl(keys.file) };
}
