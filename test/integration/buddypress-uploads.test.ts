import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { putItemsInBatches } from '../../shared/db/batch-write.ts';
import { mediaKey } from '../../shared/db/keys/media.ts';
import { userStatsKey } from '../../shared/db/keys/users.ts';
import { nextId } from '../../shared/db/sequence.ts';
import { counterUpdate } from '../../shared/db/counters.ts';
import { transactWrite } from '../../shared/db/transact.ts';
import type { Caller } from '../../shared/domain/auth/index.ts';
import { findMediaCounters, queryMemberMediaPage } from '../../shared/domain/media/media-repository.ts';
import { entry, writesOf } from '../../shared/domain/migrations/chunk-plan.ts';
import { copySourceImages } from '../../shared/domain/migrations/copy-source-images.ts';
import { showMigrationConfig } from '../../shared/domain/migrations/list-migrations.ts';
import { s3Uploads } from '../../shared/integrations/buddypress/s3-uploads.ts';
import { SourceImageTooLarge } from '../../shared/integrations/buddypress/uploads-layout.ts';
import { uploadsAt } from '../../shared/integrations/buddypress/uploads.ts';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators.ts';
import { readObject } from '../../shared/integrations/media-bucket.ts';
import { CAMERA_MAKE, jpegWithGps, smallGif } from '../support/media.ts';

/**
 * The BuddyPress uploads synced to a bucket (fauxqs's S3, on loopback), read by the S3 adapter, and copied by
 * `copySourceImages` into the media bucket as uploads are stored: re-encoded without metadata, with thumbnails,
 * at keys that do not change when the same chunk is processed again. Then the caller's part (put the items, move
 * the counters once) makes them appear in the uploader's media list and counters.
 */
const stack = inject('stack');
const client = new S3Client({
  region: 'us-east-1',
  endpoint: stack.s3Endpoint,
  forcePathStyle: true,
  // The stack's own credentials: S3 is reached through the local AWS front, which knows its keys.
  credentials: LOCAL_CREDENTIALS,
});
const bucket = `bp-uploads-${randomBytes(4).toString('hex')}`;
const PREFIX = 'site/wp-content/uploads';
const uploads = s3Uploads(bucket, PREFIX);
const NOT_AN_IMAGE = Buffer.from('These are my notes, not a picture.\n');

const put = (key: string, body: Uint8Array) =>
  client.send(new PutObjectCommand({ Bucket: bucket, Key: `${PREFIX}/${key}`, Body: body }));
const square = (size: number, background: string) =>
  sharp({ create: { width: size, height: size, channels: 3, background } })
    .jpeg()
    .toBuffer();

let avatar: Buffer;
beforeAll(async () => {
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  avatar = await sharp(await jpegWithGps())
    .resize(150, 150)
    .keepExif()
    .toBuffer();
  const cover = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#224488' } })
    .png()
    .toBuffer();
  await Promise.all([
    put('avatars/21/1700000000-bpfull.jpg', avatar),
    put('avatars/21/1700000000-bpthumb.jpg', await square(50, '#00ff00')),
    put('avatars/21/history/1800000000-bpfull.jpg', await square(140, '#ff0000')),
    put('buddypress/members/21/cover-image/4f1c-bp-cover-image.png', cover),
    put('group-avatars/5/ab12-groupavatar-thumb.gif', await smallGif(5, 5)),
    put('group-avatars/5/ab12-groupavatar-full.gif', await smallGif(30, 20)),
    put('buddypress/groups/5/cover-image/notes.jpg', NOT_AN_IMAGE),
    put('avatars/22/1700000000-bpfull.jpg', new Uint8Array(10 * 1024 * 1024 + 1)),
    // A sync tool's folder marker: an empty key name, never a candidate.
    client.send(
      new PutObjectCommand({ Bucket: bucket, Key: `${PREFIX}/avatars/23/`, Body: new Uint8Array() }),
    ),
  ]);
});

describe('S3 uploads adapter', () => {
  it('reads the current full avatar, never the thumbnail or history/, and covers by any name', async () => {
    const image = await uploads.image('member', 21, 'avatar');
    expect(image?.name).toBe('1700000000-bpfull.jpg');
    expect(Buffer.from(image?.bytes ?? []).equals(avatar)).toBe(true);
    expect((await uploads.image('member', 21, 'cover'))?.name).toBe('4f1c-bp-cover-image.png');
    expect((await uploads.image('group', 5, 'avatar'))?.name).toBe('ab12-groupavatar-full.gif');
    expect((await uploads.image('group', 5, 'cover'))?.name).toBe('notes.jpg');
  });

  it('answers undefined without a file, refuses an object over 10 MB and ids that are not positive integers', async () => {
    await expect(uploads.image('member', 404, 'avatar')).resolves.toBeUndefined();
    await expect(uploads.image('member', 23, 'avatar')).resolves.toBeUndefined();
    await expect(uploads.image('member', 22, 'avatar')).rejects.toBeInstanceOf(SourceImageTooLarge);
    await expect(uploads.image('member', -21, 'avatar')).rejects.toThrow(RangeError);
  });

  it('is reachable through its s3:// URL (bucket and prefix); a missing bucket is not', async () => {
    const viaUrl = uploadsAt(`s3://${bucket}/${PREFIX}/`);
    await expect(viaUrl.reachable()).resolves.toBe(true);
    expect((await viaUrl.image('member', 21, 'avatar'))?.name).toBe('1700000000-bpfull.jpg');
    await expect(uploadsAt(`s3://missing-${bucket}/x`).reachable()).resolves.toBe(false);
  });
});

describe('copySourceImages', () => {
  const uploader = 800_000_000 + Math.floor(Math.random() * 1_000_000);
  const createdAt = '2024-03-01T10:00:00.000Z';
  const everything = { migrate_avatars: true, migrate_cover_images: true };
  const mediaIds = async () => {
    const first = await nextId('media', 2);
    return { avatar: first, cover: first + 1 };
  };

  it('stores a member avatar and cover re-encoded, and answers the items and counters to write', async () => {
    const ids = await mediaIds();
    const input = {
      uploads,
      owner: 'member' as const,
      sourceId: 21,
      options: everything,
      uploaderId: uploader,
      objectId: uploader,
      mediaIds: ids,
      createdAt,
    };
    const copied = await copySourceImages(input);
    expect(copied.problems).toEqual([]);
    expect(copied.items).toHaveLength(2);
    const [avatarItem, coverItem] = copied.items;
    expect(avatarItem).toMatchObject({
      ...mediaKey(ids.avatar),
      id: ids.avatar,
      user_id: uploader,
      file_name: '1700000000-bpfull.jpg',
      file_type: 'image/jpeg',
      width: 150,
      height: 150,
      object_source: 'profile',
      object_id: uploader,
      status: 'active',
      created_at: createdAt,
    });
    expect(coverItem).toMatchObject({ id: ids.cover, file_type: 'image/png', width: 300, height: 100 });
    expect(copied.avatarUrl).toBe(avatarItem?.file_url);
    expect(copied.coverUrl).toBe(coverItem?.file_url);

    // In the media bucket: re-encoded (the camera and GPS gone), with a WebP thumbnail.
    expect(avatar.includes(CAMERA_MAKE)).toBe(true);
    const stored = await readObject(String(avatarItem?.s3_key));
    expect(Buffer.from(stored).equals(avatar)).toBe(false);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(Buffer.from(stored).includes(CAMERA_MAKE)).toBe(false);
    expect((await sharp(await readObject(String(avatarItem?.thumbnail_key))).metadata()).format).toBe('webp');

    expect(copied.counters).toEqual(
      ['image/jpeg', 'image/png'].map((type) => ({
        key: userStatsKey(uploader),
        // Avatars and covers are public (shown on every summary): counted in the `p` scope too.
        deltas: {
          media_total: 1,
          [`media_type:${type}`]: 1,
          'media_source:profile': 1,
          'media_scope:p': 1,
          [`media_scope_type:${type}|p`]: 1,
          'media_scope_source:profile|p': 1,
        },
        identity: { entity: 'user_stats', user_id: uploader },
      })),
    );

    // A redelivered chunk (same ids, same files) rewrites the same objects and items.
    const again = await copySourceImages(input);
    expect(again.items).toEqual(copied.items);

    // The caller's part: put the items, move the counters once; the member's media list then shows them.
    const writes = writesOf(
      [
        ...[...copied.items, ...again.items].map((item) => entry.put(item)),
        ...copied.counters.map((counter) => entry.counter(counter.key, counter.deltas, counter.identity)),
      ],
      { runId: 'uploads-test', chunkNo: 0 },
    );
    await putItemsInBatches(writes.puts);
    await transactWrite(
      writes.tally
        .entries()
        .map((entry) =>
          counterUpdate(entry.key, entry.deltas, entry.identity ? { setOnCreate: entry.identity } : {}),
        ),
    );
    expect(await findMediaCounters(uploader)).toEqual({
      media_total: 2,
      'media_type:image/jpeg': 1,
      'media_type:image/png': 1,
      'media_source:profile': 2,
      'media_scope:p': 2,
      'media_scope_type:image/jpeg|p': 1,
      'media_scope_type:image/png|p': 1,
      'media_scope_source:profile|p': 2,
    });
    const page = await queryMemberMediaPage(
      { userId: uploader, visibleIn: { memberSpaceIds: [] } },
      { page: 1, perPage: 10, total: 2 },
    );
    expect(page.items.map((item) => item.id).sort()).toEqual([ids.avatar, ids.cover]);
  });

  it('copies a group logo to its space and reports a cover that is not an image as a problem', async () => {
    const ids = await mediaIds();
    const copied = await copySourceImages({
      uploads,
      owner: 'group',
      sourceId: 5,
      options: {},
      uploaderId: uploader,
      objectId: 77,
      mediaIds: ids,
      createdAt,
    });
    expect(copied.items).toHaveLength(1);
    expect(copied.items[0]).toMatchObject({ id: ids.avatar, file_type: 'image/gif', width: 30, height: 20 });
    expect(copied.items[0]).toMatchObject({ object_source: 'space', object_id: 77 });
    expect(copied.coverUrl).toBeUndefined();
    expect(copied.problems).toEqual([expect.stringMatching(/^group 5 cover "notes\.jpg" not copied: /)]);
    expect(copied.counters.map((counter) => counter.deltas)).toEqual([
      {
        media_total: 1,
        'media_type:image/gif': 1,
        'media_source:space': 1,
        'media_scope:p': 1,
        'media_scope_type:image/gif|p': 1,
        'media_scope_source:space|p': 1,
      },
    ]);
  });

  it('leaves out what the options turn off; a file too large or an unreadable location is a problem', async () => {
    const base = { owner: 'member' as const, uploaderId: uploader, objectId: uploader, createdAt };
    const coverOnly = await copySourceImages({
      ...base,
      uploads,
      sourceId: 21,
      options: { migrate_avatars: false },
      mediaIds: await mediaIds(),
    });
    expect(coverOnly.items.map((item) => item.file_type)).toEqual(['image/png']);
    expect(coverOnly.avatarUrl).toBeUndefined();

    const none = await copySourceImages({
      ...base,
      uploads,
      sourceId: 21,
      options: { migrate_avatars: false, migrate_cover_images: false },
      mediaIds: await mediaIds(),
    });
    expect(none).toEqual({ items: [], counters: [], problems: [] });

    const tooLarge = await copySourceImages({
      ...base,
      uploads,
      sourceId: 22,
      options: everything,
      mediaIds: await mediaIds(),
    });
    expect(tooLarge.items).toEqual([]);
    expect(tooLarge.problems).toEqual([expect.stringMatching(/^member 22 avatar not copied: .*10 MB limit/)]);

    const unreadable = await copySourceImages({
      ...base,
      uploads: uploadsAt(`s3://missing-${bucket}/x`),
      sourceId: 21,
      options: everything,
      mediaIds: await mediaIds(),
    });
    expect(unreadable.problems).toHaveLength(2);
    for (const problem of unreadable.problems) expect(problem).toMatch(/could not be read/);
  });
});

describe('GET /migrations/buddypress/config warnings about the uploads location', () => {
  const admin: Caller = {
    id: 1,
    username: 'admin',
    hostRole: 'administrator',
    communityRoles: [],
    status: 'active',
  };
  const saved = process.env.BUDDYPRESS_UPLOADS_URL;
  const warningsWith = async (url: string) => {
    process.env.BUDDYPRESS_UPLOADS_URL = url;
    resetEnvCache();
    return (await showMigrationConfig(admin)).config.warnings.filter((w) => w.startsWith('Avatars'));
  };
  afterEach(() => {
    process.env.BUDDYPRESS_UPLOADS_URL = saved ?? '';
    resetEnvCache();
  });

  it('says not configured, configured but not answering, or nothing', async () => {
    expect(await warningsWith('')).toEqual([expect.stringContaining('not configured')]);
    expect(await warningsWith(`s3://missing-${bucket}/x`)).toEqual([
      expect.stringContaining('configured but does not answer'),
    ]);
    expect(await warningsWith(`s3://${bucket}/${PREFIX}`)).toEqual([]);
  });
});
