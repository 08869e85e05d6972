import { env } from '../../config/env.ts';
import { readSecret } from '../../config/secrets.ts';
import { type BuddypressUploads, uploadsAt } from './uploads-location.ts';

/**
 * The BuddyPress uploads adapters (uploads-location.ts) and the configured location. Kept apart from the adapters so
 * code that is handed a location (the migration's image worker: the location comes in its message) never bundles
 * the read of the source's secret.
 */
export {
  type BuddypressUploads,
  type SourceImage,
  type UploadsImage,
  type UploadsOwner,
  uploadsAt,
} from './uploads-location.ts';

/**
 * The configured location: `BUDDYPRESS_UPLOADS_URL` (local stack, tests), else the `uploadsUrl` key of the
 * BuddyPress source secret's JSON (cloud). Empty when neither says one.
 */
async function configuredUrl(): Promise<string> {
  const local = env().BUDDYPRESS_UPLOADS_URL.trim();
  if (local !== '') return local;
  let secret: string;
  try {
    secret = (await readSecret('buddypressSource')).trim();
  } catch {
    return '';
  }
  // Locally the secret is the source's mysql:// URL, which carries no uploads location.
  if (!secret.startsWith('{')) return '';
  try {
    const { uploadsUrl } = JSON.parse(secret) as { uploadsUrl?: unknown };
    return typeof uploadsUrl === 'string' ? uploadsUrl.trim() : '';
  } catch {
    return '';
  }
}

let opened: { key: string; url: string; uploads: BuddypressUploads } | undefined;

/**
 * The configured uploads location and its URL (what the migration's chunks hand the image worker), or undefined
 * when none is configured. One adapter per warm process.
 */
export async function configuredBuddypressUploads(): Promise<
  { readonly url: string; readonly uploads: BuddypressUploads } | undefined
> {
  const url = await configuredUrl();
  if (url === '') return undefined;
  // A local stack restarted in the same process (tests) has a new S3 emulator endpoint.
  const key = `${url}\0${env().S3_ENDPOINT ?? ''}`;
  if (opened?.key !== key) opened = { key, url, uploads: uploadsAt(url) };
  return opened;
}

/** The configured uploads location, or undefined when none is configured. */
export async function openBuddypressUploads(): Promise<BuddypressUploads | undefined> {
  return (await configuredBuddypressUploads())?.uploads;
}
