import { randomBytes } from 'node:crypto';
import type { MediaType } from '../../vocabulary/media.ts';

/**
 * Object key layout of the media bucket. A presigned upload lands at `pending/<id>` (the cloud's lifecycle rule
 * expires that prefix); a verified file is served from `media/<id>-<random>/…`, unguessable because the CDN serves
 * every object to whoever has its URL, or, for media of private and secret spaces, `private/<id>-<random>/…`. Every key of an item derives from the item, so deletion can remove all.
 */
export const PENDING_PREFIX = 'pending/';
/** Served files everyone may see: the CDN serves this prefix to whoever has the URL. */
export const PUBLIC_PREFIX = 'media/';
/**
 * Served files of private and secret spaces (`members` scope): never served by the CDN, only through short-lived
 * signed URLs made for a caller who may see the item (media-urls.ts).
 */
export const PRIVATE_PREFIX = 'private/';

export const pendingObjectKey = (mediaId: number): string => `${PENDING_PREFIX}${mediaId}`;

const EXTENSIONS: Record<MediaType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
};

export interface ServedKeys {
  readonly file: string;
  readonly thumbnail: string;
}

/**
 * The served keys of an item. `token` makes the folder unguessable: random for uploads; a copied file passes one
 * derived from its bytes (store-copied-image.ts) so that storing it again rewrites the same objects.
 */
export function servedObjectKeys(
  mediaId: number,
  type: MediaType,
  token: string = randomBytes(12).toString('base64url'),
  prefix: typeof PUBLIC_PREFIX | typeof PRIVATE_PREFIX = PUBLIC_PREFIX,
): ServedKeys {
  const folder = `${prefix}${mediaId}-${token}`;
  return { file: `${folder}/file.${EXTENSIONS[type]}`, thumbnail: `${folder}/thumbnail.webp` };
}

/** Every object an item may have in the bucket: the pending original, the served copy, the thumbnail. */
export function allObjectKeys(item: { id: number; s3_key: string; thumbnail_key: string | null }): string[] {
  const keys = new Set([pendingObjectKey(item.id), item.s3_key]);
  if (item.thumbnail_key) keys.add(item.thumbnail_key);
  return [...keys].filter((key) => key !== '');
}
