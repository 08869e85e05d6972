import { privateMediaUrl } from '../../integrations/private-media-url.ts';
import type { MediaItem } from './media-item.ts';
import { PRIVATE_PREFIX } from './media-objects.ts';

/** How long a signed media URL downloads: long enough to render a page, short enough not to be worth sharing. */
export const SIGNED_URL_SECONDS = 300;

/**
 * The item with the URLs a client fetches its files at. Public files keep their plain CDN URL (stored on the item);
 * files of private and secret spaces (under `private/`, which the CDN serves only to signed URLs) get short-lived
 * signed URLs (CloudFront signed URLs in the cloud, presigned S3 GETs locally), made only here, after the caller
 * was found to be allowed to see the item (issue 21, item 1).
 */
export async function withServedUrls<T extends MediaItem>(item: T): Promise<T> {
  if (!item.s3_key.startsWith(PRIVATE_PREFIX)) return item;
  const [fileUrl, thumbnailUrl] = await Promise.all([
    privateMediaUrl(item.s3_key, SIGNED_URL_SECONDS),
    item.thumbnail_key ? privateMediaUrl(item.thumbnail_key, SIGNED_URL_SECONDS) : null,
  ]);
  return { ...item, file_url: fileUrl, thumbnail_url: thumbnailUrl };
}
