import { join } from 'node:path';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import sharp from 'sharp';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { migrationRunPendingImages } from '../../shared/db/keys/migrations.ts';
import { queryItems } from '../../shared/db/reads.ts';
import { copyMigrationImages } from '../../shared/domain/migrations/copy-migration-images.ts';
import { completedMigration } from '../../shared/domain/migrations/migration-mapper.ts';
import { resumeMigration } from '../../shared/domain/migrations/resume-migration.ts';
import { startMigration } from '../../shared/domain/migrations/start-migration.ts';
import { findSpacesByIds } from '../../shared/domain/spaces/index.ts';
import type { ImagesMessage } from '../../shared/messages/index.ts';
import { api } from '../support/api.ts';
import { FIXTURE_IMAGE_SIZES } from '../support/buddypress/uploads.ts';
import { drive } from '../support/migration-driver.ts';
import { useUploadsSource } from '../support/migration-uploads.ts';
import { expectedResults } from '../support/migration-results.ts';
import { ALL_ITEMS, ALL_OPTIONS } from '../support/migrations.ts';

/**
 * An `images` message lost for good (it reached the DLQ without its last delivery recording its owners: a worker
 * killed on that very delivery) leaves its owners' pending markers, and the run waits at its tally forever.
 * `migrate:resume` sends those owners' images again from their markers: they are stored and counted once (each
 * resent message is delivered twice here), the tally follows and the run completes with the exact counts; a copy
 * of a message whose owners were recorded already leaves them alone, even failing on its last delivery. The
 * run is driven from this process (test/support/migration-driver.ts), whose environment names the uploads folder.
 */
const SIZE = { groups: 6, members: 30, activities: 40, seed: 31, idBase: 8_000_000 };
const source = useUploadsSource(SIZE);

/** Every waiting `images` message, received and deleted: none is delivered. */
async function takeImagesMessages(): Promise<ImagesMessage[]> {
  const taken: ImagesMessage[] = [];
  for (;;) {
    const { Messages = [] } = await source.queue.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: source.queue.imagesUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
      }),
    );
    if (Messages.length === 0) return taken;
    for (const received of Messages) {
      taken.push(JSON.parse(received.Body!) as ImagesMessage);
      await source.queue.sqs.send(
        new DeleteMessageCommand({
          QueueUrl: source.queue.imagesUrl,
          ReceiptHandle: received.ReceiptHandle!,
        }),
      );
    }
  }
}

const pendingOf = async (runId: string) =>
  (
    await queryItems(migrationRunPendingImages(runId), v.object({ sk: v.string() }), { consistent: true })
  ).map((marker) => marker.sk);

type Profile = { avatar: string; cover_photo: string };
const profileOf = async (sourceId: number) =>
  (await api<{ profile: Profile }>('GET', `/profile/bpuser${sourceId}`, { as: source.admin })).body.profile;

describe('migrate:resume and images lost for good', () => {
  it('sends the pending owners’ images again: stored and counted once, the tally follows, exact counts', async () => {
    const started = await startMigration(source.caller, 'buddypress', {
      items: ALL_ITEMS,
      options: ALL_OPTIONS,
    });
    const runId = started.migration.id;
    await drive(source.queue, { holdImages: true, untilIdle: true });
    // One members' message is lost for good (its DLQ copy never recorded); every other one is delivered.
    const messages = await takeImagesMessages();
    const lost = messages.find((message) => message.owner === 'member');
    expect(lost).toBeDefined();
    await Promise.all(messages.filter((one) => one !== lost).map((one) => copyMigrationImages(one, 1)));
    const stuck = await drive(source.queue, { untilIdle: true });
    expect(stuck.run?.status).toBe('in_progress');
    expect(stuck.run?.phase).toBe('tally');
    expect(stuck.run).not.toHaveProperty('chunks_total_tally');
    expect(await pendingOf(runId)).toHaveLength(lost!.images.length);
    // A copy of a message whose owners were recorded (a redelivery, or one that resume sent while it was in
    // flight) leaves them alone, even on its last delivery with images it can no longer read.
    const stored = messages.find((one) => one.owner === 'group' && one.images.some((image) => image.avatar));
    expect(stored).toBeDefined();
    await copyMigrationImages({ ...stored!, uploads: join(source.folder, 'gone') }, 3);

    const resumed = await resumeMigration(source.caller, 'buddypress');
    expect(resumed).toMatchObject({ step: 'tally', images_resent: lost!.images.length });
    const { run } = await drive(source.queue, { imagesTwice: true, untilIdle: true });
    expect(run?.status).toBe('completed');
    const done = completedMigration(run!);
    expect(done.results).toEqual(expectedResults(source.fixture));
    expect(await pendingOf(runId)).toEqual([]);
    // Only the fixture's file that is not an image is reported: every lost image was copied after all.
    expect(done.errors).toEqual([
      {
        item: 'groups',
        id: String(source.fixture.expected.images.problems[0]!.id),
        error: expect.any(String),
      },
    ]);

    // Each lost member's images are on the profile at the URLs the chunk set, and are its media once.
    for (const owner of lost!.images) {
      const profile = await profileOf(owner.source_id);
      const own = [owner.avatar, owner.cover].filter((image) => image !== undefined);
      expect(own.length).toBeGreaterThan(0);
      if (owner.avatar) {
        expect(profile.avatar).toBe(owner.avatar.url);
        const meta = await sharp(Buffer.from(await (await fetch(profile.avatar)).arrayBuffer())).metadata();
        expect(meta.width).toBe(FIXTURE_IMAGE_SIZES.avatar.width);
      }
      if (owner.cover) expect(profile.cover_photo).toBe(owner.cover.url);
      const media = await api<{ meta: { total: number } }>(
        'GET',
        `/profile/bpuser${owner.source_id}/media?object_source=profile`,
        { as: source.admin },
      );
      expect(media.body.meta.total).toBe(own.length);
    }
    const group = stored!.images.find((image) => image.avatar)!;
    const [space] = (await findSpacesByIds([group.object_id])).values();
    expect(space?.logo).toBe(group.avatar!.url);
    await expect(resumeMigration(source.caller, 'buddypress')).rejects.toMatchObject({
      code: 'migration_not_running',
    });
  }, 240_000);
});
