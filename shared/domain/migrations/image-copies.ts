import * as v from 'valibot';
import {
  migrationImagesDoneKey,
  migrationImagesPendingKey,
  migrationRunPendingImages,
} from '../../db/keys/migrations.ts';
import { queryItems } from '../../db/reads.ts';
import {
  conditionCheckAction,
  MAX_TRANSACTION_ACTIONS,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';
import { publish, publishBatch } from '../../integrations/queue-publisher.ts';
import { IMAGES_PER_MESSAGE, type ImagesMessage, type ImagesOwner } from '../../messages/images.ts';
import { planMessage } from './advance-run.ts';
import type { PlannedSourceImages } from './copy-source-images.ts';
import { chunksTotalName, type RunItem } from './run-item.ts';
import { findRun } from './run-repository.ts';
import type { ImageOwner } from './source-images.ts';

/** A member or group whose images a chunk named: where they go, and the media ids and URLs it set. */
export type ImagesToCopy = ImageOwner & Omit<PlannedSourceImages, 'problems'>;

/** A marker and its check are two actions: this many owners per transaction. */
const OWNERS_PER_TRANSACTION = MAX_TRANSACTION_ACTIONS / 2;

/**
 * Hands a chunk's named images to the `images` worker: the messages first, then one pending marker per owner,
 * put only while that owner's done marker is absent (a worker that stored them already leaves none), before the
 * chunk writes the users or spaces that show the URLs. So every pending marker has a message that removes it, and
 * a chunk that dies after writing its users has sent their images (its redelivery, which does not rewrite those
 * users, need not send them again). The run's tally waits until no marker is left (`imagesPending`); a message
 * lost for good (a worker killed on its last delivery) is sent again from its markers by `migrate:resume`.
 */
export async function queueImageCopies(
  run: RunItem,
  uploadsUrl: string,
  owner: 'member' | 'group',
  owners: readonly ImagesToCopy[],
): Promise<void> {
  if (owners.length === 0) return;
  // Source id order: every delivery that names the same owners sends the same messages.
  const sorted = [...owners].sort((a, b) => a.sourceId - b.sourceId).map(ownerEntry);
  await publishBatch('images', imagesMessages(run.run_id, uploadsUrl, owner, sorted));
  for (let start = 0; start < sorted.length; start += OWNERS_PER_TRANSACTION)
    await markPending(run.run_id, uploadsUrl, owner, sorted.slice(start, start + OWNERS_PER_TRANSACTION));
}

const ownerEntry = (one: ImagesToCopy): ImagesOwner => ({
  source_id: one.sourceId,
  uploader_id: one.uploaderId,
  object_id: one.objectId,
  created_at: one.createdAt,
  ...(one.avatar ? { avatar: { media_id: one.avatar.mediaId, url: one.avatar.url } } : {}),
  ...(one.cover ? { cover: { media_id: one.cover.mediaId, url: one.cover.url } } : {}),
});

/** The `images` messages of one run's owners of one kind and location, IMAGES_PER_MESSAGE owners each. */
export function imagesMessages(
  runId: string,
  uploads: string,
  owner: ImagesMessage['owner'],
  entries: readonly ImagesOwner[],
): ImagesMessage[] {
  const messages: ImagesMessage[] = [];
  for (let start = 0; start < entries.length; start += IMAGES_PER_MESSAGE)
    messages.push({
      source: 'buddypress',
      run_id: runId,
      uploads,
      owner,
      images: entries.slice(start, start + IMAGES_PER_MESSAGE),
    });
  return messages;
}

/**
 * One transaction of pending markers; an owner whose done marker exists is left out and the rest sent again. Each
 * marker keeps its owner's part of the message, so a message lost for good can be sent again from it
 * (resend-pending-images.ts).
 */
async function markPending(
  runId: string,
  uploads: string,
  owner: ImagesMessage['owner'],
  owners: readonly ImagesOwner[],
): Promise<void> {
  let pending = owners;
  while (pending.length > 0) {
    const outcome = await transactWriteIfConditionsHold(
      pending.flatMap((one): TransactAction[] => [
        conditionCheckAction(migrationImagesDoneKey(runId, owner, one.source_id), {
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
        putAction({
          ...migrationImagesPendingKey(runId, owner, one.source_id),
          entity: 'migration_images_pending',
          run_id: runId,
          owner,
          uploads,
          images: one,
        }),
      ]),
    );
    if (outcome.written) return;
    const done = new Set(outcome.failed.map((index) => Math.floor(index / 2)));
    pending = pending.filter((_, i) => !done.has(i));
  }
}

/** Whether any image a chunk of the run named is still to be stored (one strongly consistent Query of one item). */
export async function imagesPending(runId: string): Promise<boolean> {
  const found = await queryItems(migrationRunPendingImages(runId), v.object({ pk: v.string() }), {
    limit: 1,
    consistent: true,
  });
  return found.length > 0;
}

/**
 * Called by the `images` worker after it stored and recorded images: a run whose items are all counted (its phase
 * is the tally) but whose tally is not planned waited for images; once none is pending, the tally is planned.
 * Every order is covered: the tally's plan checks for pending images after the phase change, and this reads the
 * phase after removing markers, so one of the two sees both; both planning only re-sends shards, counted once.
 */
export async function planTallyIfImagesDone(source: string, runId: string): Promise<void> {
  const run = await findRun(source, true);
  if (!run || run.run_id !== runId || run.status !== 'in_progress' || run.phase !== 'tally') return;
  if ((run as Record<string, unknown>)[chunksTotalName('tally')] !== undefined) return;
  if (await imagesPending(runId)) return;
  await publish('migrations', planMessage(run, 'tally'));
}
