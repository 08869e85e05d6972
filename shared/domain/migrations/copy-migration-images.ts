import { inLanes, putItemsInBatches } from '../../db/batch-write.ts';
import { itemKeyId } from '../../db/partition.ts';
import { presentKeys } from '../../db/reads.ts';
import { env } from '../../config/env.ts';
import {
  migrationImagesDoneKey,
  migrationImagesPendingKey,
  migrationRunKey,
} from '../../db/keys/migrations.ts';
import {
  deleteAction,
  MAX_TRANSACTION_ACTIONS,
  putAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import type { TransactAction } from '../../db/transact.ts';
import {
  type BuddypressUploads,
  type UploadsImage,
  uploadsAt,
} from '../../integrations/buddypress/uploads-location.ts';
import { queueNamed } from '../../catalogue/queues.ts';
import type { ImagesMessage } from '../../messages/index.ts';
import { copySourceImages } from './copy-source-images.ts';
import { repointImage } from './image-owner-repository.ts';
import { planTallyIfImagesDone } from './image-copies.ts';
import { errorBytesLeft, type MigrationError, packChunkErrors } from './run-errors.ts';
import type { RunItem } from './run-item.ts';
import { findRun } from './run-repository.ts';
import { Tally } from './tally.ts';

type Owner = ImagesMessage['images'][number];

/** Deliveries of an `images` message before it goes to the DLQ: the last one records its owners as not copied. */
const MAX_RECEIVES = queueNamed('images').maxReceiveCount;
/** Owners copied at once (each is up to two reads, decodes and re-encodes). */
const PARALLEL_COPIES = 4;
/** A done marker and its pending marker's removal per owner, and the run's update: owners per transaction. */
const OWNERS_PER_TRANSACTION = Math.floor((MAX_TRANSACTION_ACTIONS - 1) / 2);

const KINDS: readonly UploadsImage[] = ['avatar', 'cover'];

/**
 * One `images` message (see QUEUES): for each owner, its planned images are read again from the source's uploads,
 * re-encoded into the media bucket (copySourceImages: the same keys the chunk named, the file's bytes being the
 * same) and their media items put with the owner's tally (its uploader's media counters, summed by the run's
 * tally); then, owner by owner, the done marker is created, the pending marker removed and the warnings appended
 * to the run's errors in one transaction, so a redelivery stores the same objects and items again but counts and
 * reports nothing twice. An image that cannot be copied after all (it does not decode, it changed or went away
 * since the chunk named it) is reported like a chunk's, and its URL on the user or space is cleared (or set to the
 * copy it has now). An owner recorded already is left out. A message of another run, or of a run that has ended,
 * is dropped.
 */
export async function copyMigrationImages(message: ImagesMessage, receiveCount: number): Promise<void> {
  const run = await findRun(message.source, true);
  if (!run || run.run_id !== message.run_id || run.status !== 'in_progress') return;
  const left = await ownersNotDone(run, message);
  if (left.images.length > 0) await copyAndRecord(run, left, receiveCount);
  await planTallyIfImagesDone(run.source, run.run_id);
}

/**
 * The message less the owners recorded already (done markers, read consistently): a copy `migrate:resume` sent
 * again, or a redelivery, neither copies them again nor, failing, clears the URLs of images that were stored.
 */
async function ownersNotDone(run: RunItem, message: ImagesMessage): Promise<ImagesMessage> {
  const keyed = message.images.map((one) => ({
    one,
    key: migrationImagesDoneKey(run.run_id, message.owner, one.source_id),
  }));
  const done = await presentKeys(keyed.map(({ key }) => key));
  return { ...message, images: keyed.filter(({ key }) => !done.has(itemKeyId(key))).map(({ one }) => one) };
}

async function copyAndRecord(run: RunItem, message: ImagesMessage, receiveCount: number): Promise<void> {
  let outcomes: { owner: Owner; problems: string[] }[];
  try {
    outcomes = await copyOwners(run, message);
  } catch (error) {
    if (receiveCount < MAX_RECEIVES) throw error;
    // The last delivery: the owners are recorded as not copied, so the run's tally still comes.
    const reason = error instanceof Error ? error.message : String(error);
    await clearPlannedUrls(message);
    outcomes = message.images.map((owner) => ({
      owner,
      problems: KINDS.filter((kind) => owner[kind]).map(
        (kind) => `${message.owner} ${owner.source_id} ${kind} not copied: ${reason}`,
      ),
    }));
  }
  await recordOwners(run, message.owner, outcomes);
}

async function copyOwners(
  run: RunItem,
  message: ImagesMessage,
): Promise<{ owner: Owner; problems: string[] }[]> {
  const uploads = uploadsOf(message.uploads);
  const outcomes: { owner: Owner; problems: string[] }[] = [];
  const writes: (Record<string, unknown> & { pk: string; sk: string })[] = [];
  await inLanes(message.images, PARALLEL_COPIES, async (owner) => {
    const copied = await copySourceImages({
      uploads,
      owner: message.owner,
      sourceId: owner.source_id,
      options: {
        migrate_avatars: owner.avatar !== undefined,
        migrate_cover_images: owner.cover !== undefined,
      },
      uploaderId: owner.uploader_id,
      objectId: owner.object_id,
      mediaIds: { avatar: owner.avatar?.media_id ?? 0, cover: owner.cover?.media_id ?? 0 },
      createdAt: owner.created_at,
    });
    const problems = [...copied.problems];
    for (const kind of KINDS) {
      const planned = owner[kind];
      const url = kind === 'avatar' ? copied.avatarUrl : copied.coverUrl;
      if (!planned || url === planned.url) continue;
      await repointImage(message.owner, owner.object_id, kind, planned.url, url ?? '');
      if (url === undefined && !problems.some((problem) => problem.includes(` ${kind} `)))
        problems.push(
          `${message.owner} ${owner.source_id} ${kind} not copied: it is no longer in the uploads`,
        );
    }
    const tally = new Tally();
    for (const counter of copied.counters) tally.add(counter.key, counter.deltas, counter.identity);
    writes.push(
      ...copied.items,
      ...tally.shardItems(run.run_id, message.owner === 'member' ? 'user' : 'space', owner.object_id),
    );
    outcomes.push({ owner, problems });
  });
  await putItemsInBatches(writes);
  return outcomes;
}

/** Given up: no URL the chunk set may show an image that was never stored (each tried, whatever the others do). */
async function clearPlannedUrls(message: ImagesMessage): Promise<void> {
  await Promise.allSettled(
    message.images.flatMap((owner) =>
      KINDS.flatMap((kind) => {
        const planned = owner[kind];
        return planned ? [repointImage(message.owner, owner.object_id, kind, planned.url, '')] : [];
      }),
    ),
  );
}

/**
 * Counts each owner's images once: its done marker (`attribute_not_exists`), its pending marker removed, and its
 * warnings appended to the run's errors as a chunk appends its own (run-errors.ts), in one transaction per part.
 * An owner whose marker exists was recorded by another delivery: left out, and the rest sent again.
 */
async function recordOwners(
  run: RunItem,
  owner: ImagesMessage['owner'],
  outcomes: readonly { owner: Owner; problems: string[] }[],
): Promise<void> {
  let left = [...outcomes].sort((a, b) => a.owner.source_id - b.owner.source_id);
  while (left.length > 0) {
    const part = left.slice(0, OWNERS_PER_TRANSACTION);
    const errors: MigrationError[] = part.flatMap(({ owner: one, problems }) =>
      problems.map((error) => ({
        item: owner === 'member' ? 'members' : 'groups',
        id: String(one.source_id),
        error,
      })),
    );
    const packed = errors.length > 0 ? packChunkErrors(errors, errorBytesLeft(run)) : undefined;
    const actions: TransactAction[] = [
      ...part.flatMap(({ owner: one }) => [
        putAction(
          {
            ...migrationImagesDoneKey(run.run_id, owner, one.source_id),
            entity: 'migration_images_done',
            run_id: run.run_id,
          },
          { ifAbsent: true },
        ),
        deleteAction(migrationImagesPendingKey(run.run_id, owner, one.source_id)),
      ]),
      ...(packed ? [appendErrors(run, packed)] : []),
    ];
    const outcome = await transactWriteIfConditionsHold(actions);
    if (outcome.written) {
      left = left.slice(part.length);
      continue;
    }
    // The run is not this one any more: nothing to record.
    if (packed && outcome.failed.includes(actions.length - 1)) return;
    const recorded = new Set(outcome.failed.map((index) => Math.floor(index / 2)));
    left = [...part.filter((_, i) => !recorded.has(i)), ...left.slice(part.length)];
  }
}

const appendErrors = (run: RunItem, packed: Uint8Array): TransactAction =>
  updateAction(migrationRunKey(run.source), {
    UpdateExpression: 'SET #errors = list_append(if_not_exists(#errors, :none), :errors) ADD #bytes :bytes',
    ConditionExpression: 'run_id = :run',
    ExpressionAttributeNames: { '#errors': 'errors_packed', '#bytes': 'errors_bytes' },
    ExpressionAttributeValues: {
      ':errors': [packed],
      ':none': [],
      ':bytes': packed.byteLength,
      ':run': run.run_id,
    },
  });

let opened: { key: string; uploads: BuddypressUploads } | undefined;

/** One adapter per location and warm process (a local stack restarted in the same process has a new endpoint). */
function uploadsOf(url: string): BuddypressUploads {
  const key = `${url}\0${env().S3_ENDPOINT ?? ''}`;
  if (opened?.key !== key) opened = { key, uploads: uploadsAt(url) };
  return opened.uploads;
}
