import { type AppError, isAppError } from '../../errors/app-error.ts';
import type { BuddypressUploads, UploadsImage, UploadsOwner } from '../../integrations/buddypress/uploads.ts';
import { SourceImageOutside, SourceImageTooLarge } from '../../integrations/buddypress/uploads-layout.ts';
import type { MediaObjectSource } from '../../vocabulary/media.ts';
import {
  activeMediaWrites,
  type MediaAggregate,
  type MediaItem,
  type StoredMedia,
  storeCopiedImage,
} from '../media/index.ts';

export interface CopySourceImagesInput {
  readonly uploads: BuddypressUploads;
  /** A BuddyPress member (user) or group. */
  readonly owner: UploadsOwner;
  /** The member's `wp_users.ID` or the group's `bp_groups.id` in the source. */
  readonly sourceId: number;
  /** The run's options; an absent option is true (the contract's default), so only `false` leaves an image out. */
  readonly options: { readonly migrate_avatars?: boolean; readonly migrate_cover_images?: boolean };
  /**
   * The platform user whose media the items are: the member's own user for a member; for a group, the space's
   * creator (a real platform user: their media lists and counters get the items).
   */
  readonly uploaderId: number;
  /** What the images belong to: the member's platform user id (`profile`) or the group's space id (`space`). */
  readonly objectId: number;
  /**
   * Media ids, one per image (both always given, used or not), the same on every delivery of a chunk, so a
   * redelivery rewrites the same objects and items instead of adding copies: two ids per row from the chunk's
   * reserved `media` block. For a target an earlier run created (`skip_existing` off), new ids would list its
   * images twice: reuse that run's ids (kept with the row's map), or copy images only for targets this run creates.
   */
  readonly mediaIds: { readonly avatar: number; readonly cover: number };
  /** UTC ISO creation time of the items: the chunk's pinned clock or the row's preserved date. */
  readonly createdAt: string;
}

export interface CopiedSourceImages {
  /** The copied avatar's URL: the user's `avatar` (member) or the space's `logo` (group). Absent when not copied. */
  readonly avatarUrl?: string;
  /** The copied cover's URL: `cover_photo` of the user or of the space. Absent when not copied. */
  readonly coverUrl?: string;
  /** Active media items, ready to put as they are (deterministic keys and content). */
  readonly items: readonly StoredMedia[];
  /** The aggregate moves the items make (their uploader's media counters), one entry per item. */
  readonly counters: readonly MediaAggregate[];
  /** One sentence per image found but not copied (unreadable, not an allowed image, too large). */
  readonly problems: readonly string[];
}

/**
 * Member images are attached to the member's profile (`object_source: 'profile'`, the user id) and group images to
 * the group's space (`'space'`, the space id), as the same pictures uploaded through the API would be; so they are
 * listed under those sources in the uploader's media, and `DELETE /media/{id}` removes them like any upload.
 */
const OBJECT_SOURCE: Record<UploadsOwner, MediaObjectSource> = { member: 'profile', group: 'space' };

type Copy = { kind: UploadsImage; item?: MediaItem; problem?: string };

/**
 * Copies a member's or a group's avatar (the current full-size one) and cover from the BuddyPress uploads into the
 * media bucket, verified and re-encoded exactly as uploads are (`storeCopiedImage`), when the run's options want
 * them. The objects are written here (at keys of the media id and the file's bytes: a file changed at the source
 * between two deliveries leaves the first copy's objects unreferenced); the table is not touched. The caller must:
 *
 * - put every `items` entry as it is (BatchWriteItem, or a `put` entry of chunk-plan.ts): a plain idempotent put;
 * - move every `counters` entry once per item it counts: a `counter` entry of chunk-plan.ts, which the
 *   chunk's marker counts exactly once. An item an earlier run already wrote under the same id (see `mediaIds`)
 *   is put again but must not be counted again;
 * - set `avatarUrl` / `coverUrl` on the user (`avatar`, `cover_photo`) or the space (`logo`, `cover_photo`) it
 *   writes in the same chunk;
 * - report each `problems` entry as a warning of the row (never count the row failed for it).
 *
 * No image (none uploaded, option off) gives empty lists. A source that cannot be read gives a problem, not an
 * error; a media bucket that cannot be written throws (500 `upload_failed`), so the chunk is retried, as does an
 * input the caller got wrong (a source id that is not a positive integer).
 */
export async function copySourceImages(input: CopySourceImagesInput): Promise<CopiedSourceImages> {
  const kinds: UploadsImage[] = [];
  if (input.options.migrate_avatars !== false) kinds.push('avatar');
  if (input.options.migrate_cover_images !== false) kinds.push('cover');
  const copies = await Promise.all(kinds.map((kind) => copyOne(input, kind)));
  const items = copies.flatMap((copy) => (copy.item ? [copy.item] : []));
  const urlOf = (kind: UploadsImage) => copies.find((copy) => copy.kind === kind)?.item?.file_url;
  const avatarUrl = urlOf('avatar');
  const coverUrl = urlOf('cover');
  return {
    ...(avatarUrl === undefined ? {} : { avatarUrl }),
    ...(coverUrl === undefined ? {} : { coverUrl }),
    items: items.map((item) => activeMediaWrites(item).item),
    counters: items.flatMap((item) => activeMediaWrites(item).aggregates),
    problems: copies.flatMap((copy) => (copy.problem ? [copy.problem] : [])),
  };
}

async function copyOne(input: CopySourceImagesInput, kind: UploadsImage): Promise<Copy> {
  const label = `${input.owner} ${input.sourceId} ${kind}`;
  let source: Awaited<ReturnType<BuddypressUploads['image']>>;
  try {
    source = await input.uploads.image(input.owner, input.sourceId, kind);
  } catch (error) {
    if (error instanceof RangeError) throw error;
    return { kind, problem: `${label} not copied: ${sourceProblem(error)}` };
  }
  if (!source) return { kind };
  try {
    const item = await storeCopiedImage({
      mediaId: input.mediaIds[kind],
      uploaderId: input.uploaderId,
      fileName: source.name,
      bytes: source.bytes,
      objectSource: OBJECT_SOURCE[input.owner],
      objectId: input.objectId,
      createdAt: input.createdAt,
    });
    return { kind, item };
  } catch (error) {
    // A refused file (400) is a fact about the source; anything else is ours to retry.
    if (isAppError(error) && error.status === 400)
      return { kind, problem: `${label} "${source.name}" not copied: ${refusal(error)}` };
    throw error;
  }
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

function sourceProblem(error: unknown): string {
  if (error instanceof SourceImageTooLarge)
    return `"${error.fileName}" is larger than the 10 MB limit (${megabytes(error.size)})`;
  if (error instanceof SourceImageOutside) return error.message;
  // The error's code only (EACCES, AccessDenied): its message may carry server paths.
  const code = (error as { code?: unknown; name?: unknown } | null)?.code ?? (error as Error | null)?.name;
  return `the uploads location could not be read (${typeof code === 'string' ? code : 'error'})`;
}

function refusal(error: AppError): string {
  if (error.code === 'file_too_large') return `larger than the 10 MB limit (${String(error.data.file_size)})`;
  if (error.code === 'rest_invalid_param') return 'the file is empty';
  return error.message;
}
