import { inLanes, putItemsInBatches } from '../../db/batch-write.ts';
import type { MigrationIdSpaceName } from '../../db/keys/migrations.ts';
import { type BuddypressUploads, openBuddypressUploads } from '../../integrations/buddypress/uploads.ts';
import type { ChunkInput } from './chunk-input.ts';
import { type ChunkEntry, entry } from './chunk-plan.ts';
import { copySourceImages } from './copy-source-images.ts';
import { targetIds } from './id-spaces.ts';
import { Tally } from './tally.ts';

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

/** Images copied at once (each is a read, a decode and a re-encode). */
const PARALLEL_COPIES = 4;

/** Whether the run copies any image: an option on and an uploads location configured. */
export async function imagesWanted(context: Pick<ChunkInput, 'run'>): Promise<BuddypressUploads | undefined> {
  const { options } = context.run;
  if (options.migrate_avatars === false && options.migrate_cover_images === false) return undefined;
  return openBuddypressUploads();
}

/**
 * Copies the avatars and covers of users or spaces this chunk is creating, before their items are written (so an
 * item that exists has its images): media items at id-space ids (the same on every delivery), put here together
 * with the media counters they move, stored as the object's own tally (`user` / `space` and its id, so they are
 * counted once at the run's end whichever delivery created the object). Answers the URLs to set on each object,
 * and a warning for each image that cannot be copied (reported in the chunk's `errors`; it never fails the row).
 */
export async function copyImagesOf(
  context: ChunkInput,
  owner: 'member' | 'group',
  owners: readonly ImageOwner[],
): Promise<{ images: Map<number, OwnerImages>; warnings: ChunkEntry[] }> {
  const answer = new Map<number, OwnerImages>();
  const warnings: ChunkEntry[] = [];
  const uploads = owners.length > 0 ? await imagesWanted(context) : undefined;
  if (!uploads) return { images: answer, warnings };
  const sourceIds = owners.map((owned) => owned.sourceId);
  const [avatarIds, coverIds] = await Promise.all([
    targetIds(context.run.source, ID_SPACES[owner].avatar, sourceIds, context.run.run_id),
    targetIds(context.run.source, ID_SPACES[owner].cover, sourceIds, context.run.run_id),
  ]);
  const writes: (Record<string, unknown> & { pk: string; sk: string })[] = [];
  await inLanes(owners, PARALLEL_COPIES, async (owned) => {
    const copied = await copySourceImages({
      uploads,
      owner,
      sourceId: owned.sourceId,
      options: context.run.options,
      uploaderId: owned.uploaderId,
      objectId: owned.objectId,
      mediaIds: { avatar: avatarIds.of(owned.sourceId), cover: coverIds.of(owned.sourceId) },
      createdAt: owned.createdAt,
    });
    answer.set(owned.sourceId, {
      ...(copied.avatarUrl ? { avatarUrl: copied.avatarUrl } : {}),
      ...(copied.coverUrl ? { coverUrl: copied.coverUrl } : {}),
    });
    const tally = new Tally();
    for (const counter of copied.counters) tally.add(counter.key, counter.deltas, counter.identity);
    writes.push(
      ...copied.items,
      ...tally.shardItems(context.run.run_id, owner === 'member' ? 'user' : 'space', owned.objectId),
    );
    for (const problem of copied.problems)
      warnings.push(
        entry.warning({
          item: owner === 'member' ? 'members' : 'groups',
          id: String(owned.sourceId),
          error: problem,
        }),
      );
  });
  await putItemsInBatches(writes);
  return { images: answer, warnings };
}
