import { type AppError, isAppError } from '../../errors/app-error.ts';
import type {
  BuddypressUploads,
  SourceImage,
  UploadsImage,
  UploadsOwner,
} from '../../integrations/buddypress/uploads-location.ts';
import { SourceImageOutside, SourceImageTooLarge } from '../../integrations/buddypress/uploads-layout.ts';
import type { MediaObjectSource } from '../../vocabulary/media.ts';
import {
  activeMediaWrites,
  type MediaAggregate,
  type MediaItem,
  planCopiedImage,
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
  const copies = await Promise.all(wantedKinds(input.options).map((kind) => copyOne(input, kind)));
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

/** The wanted images of a run's options, avatar first. */
const wantedKinds = (options: CopySourceImagesInput['options']): UploadsImage[] => [
  ...(options.migrate_avatars !== false ? (['avatar'] as const) : []),
  ...(options.migrate_cover_images !== false ? (['cover'] as const) : []),
];

/** One image read from the source: the file, none, or the sentence saying why it cannot be read. */
async function readSource(
  input: Pick<CopySourceImagesInput, 'uploads' | 'owner' | 'sourceId'>,
  kind: UploadsImage,
): Promise<{ source?: SourceImage; problem?: string }> {
  try {
    const source = await input.uploads.image(input.owner, input.sourceId, kind);
    return source ? { source } : {};
  } catch (error) {
    if (error instanceof RangeError) throw error;
    return { problem: `${labelOf(input, kind)} not copied: ${sourceProblem(error)}` };
  }
}

const labelOf = (input: Pick<CopySourceImagesInput, 'owner' | 'sourceId'>, kind: UploadsImage) =>
  `${input.owner} ${input.sourceId} ${kind}`;

/** A refused file (400) is a fact about the source, reported; anything else is ours to retry. */
function refused(
  input: Pick<CopySourceImagesInput, 'owner' | 'sourceId'>,
  kind: UploadsImage,
  source: SourceImage,
  error: unknown,
): string {
  if (isAppError(error) && error.status === 400)
    return `${labelOf(input, kind)} "${source.name}" not copied: ${refusal(error)}`;
  throw error;
}

async function copyOne(input: CopySourceImagesInput, kind: UploadsImage): Promise<Copy> {
  const { source, problem } = await readSource(input, kind);
  if (!source) return { kind, ...(problem ? { problem } : {}) };
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
    return { kind, problem: refused(input, kind, source, error) };
  }
}

export type PlanSourceImagesInput = Pick<
  CopySourceImagesInput,
  'uploads' | 'owner' | 'sourceId' | 'options' | 'mediaIds'
>;

export interface PlannedSourceImages {
  /** The avatar's media id and the URL its copy will have; absent when there is none to copy. */
  readonly avatar?: { readonly mediaId: number; readonly url: string };
  readonly cover?: { readonly mediaId: number; readonly url: string };
  /** One sentence per image found but refused before decoding (unreadable, not an allowed image, too large). */
  readonly problems: readonly string[];
}

type Plan = { kind: UploadsImage; planned?: { mediaId: number; url: string }; problem?: string };

/**
 * What `copySourceImages` will store, decided without decoding (no sharp): each wanted image read and checked by
 * `planCopiedImage`, its URL named by its media id and bytes, so the same file copied later under the same id
 * gets exactly that URL. The migration's chunk sets these URLs on what it writes and leaves the storing to the
 * `images` worker. Problems are those `copySourceImages` reports for the same files, but for a file that cannot be
 * decoded, which only the copy finds.
 */
export async function planSourceImages(input: PlanSourceImagesInput): Promise<PlannedSourceImages> {
  const plans = await Promise.all(
    wantedKinds(input.options).map(async (kind): Promise<Plan> => {
      const { source, problem } = await readSource(input, kind);
      if (!source) return { kind, ...(problem ? { problem } : {}) };
      try {
        const mediaId = input.mediaIds[kind];
        return { kind, planned: { mediaId, url: planCopiedImage(mediaId, source.bytes).fileUrl } };
      } catch (error) {
        return { kind, problem: refused(input, kind, source, error) };
      }
    }),
  );
  const plannedOf = (kind: UploadsImage) => plans.find((plan) => plan.kind === kind)?.planned;
  const avatar = plannedOf('avatar');
  const cover = plannedOf('cover');
  return {
    ...(avatar ? { avatar } : {}),
    ...(cover ? { cover } : {}),
    problems: plans.flatMap((plan) => (plan.problem ? [plan.problem] : [])),
  };
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
