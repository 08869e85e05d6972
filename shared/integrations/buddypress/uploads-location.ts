import { fileURLToPath } from 'node:url';
import { folderUploads } from './folder-uploads.ts';
import { s3Uploads } from './s3-uploads.ts';

/**
 * The BuddyPress uploads folder (`wp-content/uploads`), the only place avatars and covers exist: the database has
 * no record of them (research/buddypress.md §1.9). Layout and choice rules: uploads-layout.ts.
 */
export type UploadsOwner = 'member' | 'group';
export type UploadsImage = 'avatar' | 'cover';

export interface SourceImage {
  /** The file's name in its folder (`1700000000-bpfull.jpg`); says nothing trustworthy about its type. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface BuddypressUploads {
  /**
   * The current full-size avatar, or the cover, of a member or group; undefined when it has none. Rejects with
   * `SourceImageTooLarge` for a file over 10 MB (never read), `SourceImageOutside` for a link leading out of the
   * location, a `RangeError` for an id that is not a positive integer, or the storage's own error.
   */
  image(owner: UploadsOwner, sourceId: number, kind: UploadsImage): Promise<SourceImage | undefined>;
  /** True when the location answers (GET …/config warns otherwise). */
  reachable(): Promise<boolean>;
}

/** A location whose URL names a scheme we cannot read: configured, never reachable. */
function unusableUploads(url: string): BuddypressUploads {
  const scheme = url.slice(0, url.indexOf(':'));
  return {
    image: () => Promise.reject(new Error(`uploads location scheme "${scheme}" is not supported`)),
    reachable: () => Promise.resolve(false),
  };
}

/**
 * The adapter for a location URL: `s3://bucket/prefix`, `file:///path`, or a plain path (relative to the
 * working directory). Any other scheme gives a location that is never reachable.
 */
export function uploadsAt(url: string): BuddypressUploads {
  if (url.startsWith('s3://')) {
    const [bucket = '', ...prefix] = url.slice('s3://'.length).split('/');
    return bucket === '' ? unusableUploads(url) : s3Uploads(bucket, prefix.join('/'));
  }
  if (url.startsWith('file://')) return folderUploads(fileURLToPath(url));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return unusableUploads(url);
  return folderUploads(url);
}
