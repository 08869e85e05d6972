import { inLanes } from '../../db/batch-write.ts';
import type { MigrationIdSpaceName } from '../../db/keys/migrations.ts';
import {
  type BuddypressUploads,
  configuredBuddypressUploads,
} from '../../integrations/buddypress/uploads.ts';
import type { ChunkInput } from './chunk-input.ts';
import { type ChunkEntry, entry } from './chunk-plan.ts';
import { planSourceImages } from './copy-source-images.ts';
import { targetIds } from './id-spaces.ts';
import { type ImagesToCopy, queueImageCopies } from './image-copies.ts';

/** A user or space a chunk is creating, whose avatar and cover the source may hold. */
export interface ImageOwner {
  readonly sourceId: number;
  /** The user the media items belong to (the member; a group's creator). */
  readonly uploaderId: number;
  /** The user id (member) or space id (group) the images are attached to. */
  readonly objectId: number;
  readonly createdAt: string;
}

export interface OwnerImages {
  readonly avatarUrl?: string;
  readonly coverUrl?: string;
}

const ID_SPACES = {
  member: { avatar: 'member_avatar', cover: 'member_cover' },
  group: { avatar: 'group_avatar', cover: 'group_cover' },
} as const satisfies Record<string, Record<string, MigrationIdSpaceName>>;

/** Images read at once (each is a read of up to 10 MB and a hash). */
const PARALLEL_READS = 4;

/** Whether the run copies any image: an option on and an uploads location configured (with its URL). */
export async function imagesWanted(
  context: Pick<ChunkInput, 'run'>,
): Promise<{ readonly url: string; readonly uploads: BuddypressUploads } | undefined> {
  const { options } = context.run;
  if (options.migrate_avatars === false && options.migrate_cover_images === false) return undefined;
  return configuredBuddypressUploads();
}

/**
 * Names the avatars and covers of users or spaces this chunk is creating, before their items are written: each
 * image read and checked (no decoding), at its id-space media id (the same on every delivery) and the URL its
 * copy will have. Hands them to the `images` worker (image-copies.ts: sent, and marked pending so the run's
 * tally waits for them), which stores them re-encoded, puts their media items and tallies their counters. Answers
 * the URLs to set on each object, and a warning for each image refused here (reported in the chunk's `errors`; it
 * never fails the row; a file that turns out not to decode is reported by the worker).
 */
export async function planImagesOf(
  context: ChunkInput,
  owner: 'member' | 'group',
  owners: readonly ImageOwner[],
): Promise<{ images: Map<number, OwnerImages>; warnings: ChunkEntry[] }> {
  const answer = new Map<number, OwnerImages>();
  const warnings: ChunkEntry[] = [];
  const configured = owners.length > 0 ? await imagesWanted(context) : undefined;
  if (!configured) return { images: answer, warnings };
  const sourceIds = owners.map((owned) => owned.sourceId);
  const [avatarIds, coverIds] = await Promise.all([
    targetIds(context.run.source, ID_SPACES[owner].avatar, sourceIds, context.run.run_id),
    targetIds(context.run.source, ID_SPACES[owner].cover, sourceIds, context.run.run_id),
  ]);
  const toCopy: ImagesToCopy[] = [];
  await inLanes(owners, PARALLEL_READS, async (owned) => {
    const planned = await planSourceImages({
      uploads: configured.uploads,
      owner,
      sourceId: owned.sourceId,
      options: context.run.options,
      mediaIds: { avatar: avatarIds.of(owned.sourceId), cover: coverIds.of(owned.sourceId) },
    });
    answer.set(owned.sourceId, {
      ...(planned.avatar ? { avatarUrl: planned.avatar.url } : {}),
      ...(planned.cover ? { coverUrl: planned.cover.url } : {}),
    });
    if (planned.avatar || planned.cover) toCopy.push({ ...owned, ...planned });
    for (const problem of planned.problems)
      warnings.push(
        entry.warning({
          item: owner === 'member' ? 'members' : 'groups',
          id: String(owned.sourceId),
          error: problem,
        }),
      );
  });
  await queueImageCopies(context.run, configured.url, owner, toCopy);
  return { images: answer, warnings };
}
