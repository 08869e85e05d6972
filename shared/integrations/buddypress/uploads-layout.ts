import { MEDIA_MAX_BYTES } from '../../vocabulary/media.ts';
import type { UploadsImage, UploadsOwner } from './uploads.ts';

/**
 * Where BuddyPress keeps avatars and covers in its uploads folder, and which file of a folder is the image
 * (research/buddypress.md §1.9). Both adapters (folder, S3) list one folder and apply these rules, so they choose
 * the same file for the same listing.
 */

/** The largest source file copied: the media limit. A larger file is refused before its bytes are read. */
export const SOURCE_IMAGE_MAX_BYTES = MEDIA_MAX_BYTES;

/** A source file over SOURCE_IMAGE_MAX_BYTES: a problem of that one image, not of the location. */
export class SourceImageTooLarge extends Error {
  readonly fileName: string;
  readonly size: number;

  constructor(fileName: string, size: number) {
    super(`${fileName} is ${size} bytes, over the ${SOURCE_IMAGE_MAX_BYTES}-byte limit`);
    this.name = 'SourceImageTooLarge';
    this.fileName = fileName;
    this.size = size;
  }
}

/** A source file that resolves outside the uploads location (a symbolic link leading elsewhere). */
export class SourceImageOutside extends Error {
  constructor(fileName: string) {
    super(`${fileName} leads outside the uploads location`);
    this.name = 'SourceImageOutside';
  }
}

/**
 * The folder of an image, relative to the uploads root, as path segments: `avatars/{id}`, `group-avatars/{id}`,
 * `buddypress/members/{id}/cover-image`, `buddypress/groups/{id}/cover-image`. The id is the only input that
 * reaches a path, so it must be a positive integer (nothing like `../x` can be formed).
 */
export function imageFolder(owner: UploadsOwner, sourceId: number, kind: UploadsImage): string[] {
  if (!Number.isSafeInteger(sourceId) || sourceId <= 0) {
    throw new RangeError(`A BuddyPress ${owner} id is a positive integer, not ${String(sourceId)}`);
  }
  const id = String(sourceId);
  if (kind === 'avatar') return [owner === 'member' ? 'avatars' : 'group-avatars', id];
  return ['buddypress', owner === 'member' ? 'members' : 'groups', id, 'cover-image'];
}

/**
 * The full-size avatar markers in BuddyPress's own order of preference (`bp_core_fetch_avatar`): the current
 * `-bpfull`, then the legacy member name `-avatar2`, then the legacy group name `-groupavatar-full`. BuddyPress
 * tries all three whatever the owner, and so do we. Thumbnails (`-bpthumb`, `-avatar1`, `-groupavatar-thumb`)
 * are never taken.
 */
const FULL_AVATAR_MARKERS = ['-bpfull', '-avatar2', '-groupavatar-full'] as const;

/** A name a listing may give for a direct entry of the folder; dot files (`.htaccess`, `.DS_Store`) are not images. */
const isCandidate = (name: string): boolean =>
  name !== '' && !name.startsWith('.') && !name.includes('/') && !name.includes('\0');

/** The greatest name in code-unit order, so the choice never depends on the order a listing came in. */
const greatest = (names: readonly string[]): string | undefined =>
  names.reduce<string | undefined>(
    (best, name) => (best === undefined || name > best ? name : best),
    undefined,
  );

/**
 * The image among the names of a folder's direct files (callers leave subfolders such as `history/` out). A cover
 * folder holds one file of any name; an avatar folder holds `{id}-bpfull.{ext}` and `{id}-bpthumb.{ext}`. When
 * several names qualify, the greatest wins: BuddyPress names files `{unix time}-bpfull.{ext}`, so that is the
 * newest upload (ten-digit times sort as numbers); BuddyPress itself keeps whichever its directory listing returns
 * last, which is not deterministic.
 */
export function pickImageFile(kind: UploadsImage, names: readonly string[]): string | undefined {
  const candidates = names.filter(isCandidate);
  if (kind === 'cover') return greatest(candidates);
  for (const marker of FULL_AVATAR_MARKERS) {
    const found = greatest(candidates.filter((name) => name.includes(marker)));
    if (found !== undefined) return found;
  }
  return undefined;
}
