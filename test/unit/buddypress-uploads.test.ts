import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { resetSecretCache } from '../../shared/config/secrets.ts';
import { folderUploads } from '../../shared/integrations/buddypress/folder-uploads.ts';
import { openBuddypressUploads, uploadsAt } from '../../shared/integrations/buddypress/uploads.ts';
import {
  imageFolder,
  pickImageFile,
  SOURCE_IMAGE_MAX_BYTES,
  SourceImageOutside,
  SourceImageTooLarge,
} from '../../shared/integrations/buddypress/uploads-layout.ts';

/**
 * Which file of the BuddyPress uploads is a member's or group's image (research/buddypress.md §1.9), and the
 * folder adapter's refusals. The files are written to a temporary folder; their bytes only need to be told apart
 * (the adapter reads, the media domain verifies).
 */
const root = mkdtempSync(join(tmpdir(), 'bp-uploads-unit-'));
const outside = mkdtempSync(join(tmpdir(), 'bp-uploads-outside-'));

function put(relative: string, content = relative): void {
  const file = join(root, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString() : undefined);

beforeAll(() => {
  put('avatars/7/1700000000-bpfull.jpg');
  put('avatars/7/1700000000-bpthumb.jpg');
  put('avatars/7/1600000000-bpfull.jpg');
  // BuddyPress ≥ 10 keeps earlier avatars here; a later-sorting name must not win either.
  put('avatars/7/history/1900000000-bpfull.jpg');
  put('avatars/7/.DS_Store');
  put('avatars/8/history/1800000000-bpfull.jpg');
  put('avatars/9/abc123-avatar1.jpg');
  put('avatars/9/abc123-avatar2.jpg');
  put('group-avatars/3/1700000000-bpthumb.png');
  put('group-avatars/3/1700000000-bpfull.png');
  put('group-avatars/4/f00d-groupavatar-thumb.png');
  put('group-avatars/4/f00d-groupavatar-full.png');
  put('buddypress/members/7/cover-image/5f3c-bp-cover-image.jpg');
  put('buddypress/groups/3/cover-image/anything.webp');
  // Links: one staying inside the location, one file and one folder leading out of it.
  writeFileSync(join(outside, 'secret-bpfull.jpg'), 'outside');
  put('shared/1700000000-bpfull.jpg', 'shared file');
  mkdirSync(join(root, 'avatars/11'), { recursive: true });
  symlinkSync(join(root, 'shared/1700000000-bpfull.jpg'), join(root, 'avatars/11/1700000000-bpfull.jpg'));
  mkdirSync(join(root, 'avatars/12'), { recursive: true });
  symlinkSync(join(outside, 'secret-bpfull.jpg'), join(root, 'avatars/12/1-bpfull.jpg'));
  symlinkSync(outside, join(root, 'avatars/13'));
  // Sparse: its size says too large before anything is read.
  put('avatars/14/1700000000-bpfull.jpg', '');
  truncateSync(join(root, 'avatars/14/1700000000-bpfull.jpg'), SOURCE_IMAGE_MAX_BYTES + 1);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('pickImageFile', () => {
  it('takes the full avatar over the thumbnail, in BuddyPress order: -bpfull, -avatar2, -groupavatar-full', () => {
    expect(pickImageFile('avatar', ['1-bpthumb.jpg', '1-bpfull.jpg'])).toBe('1-bpfull.jpg');
    expect(pickImageFile('avatar', ['a-avatar1.jpg', 'a-avatar2.jpg'])).toBe('a-avatar2.jpg');
    expect(pickImageFile('avatar', ['g-groupavatar-thumb.png', 'g-groupavatar-full.png'])).toBe(
      'g-groupavatar-full.png',
    );
    // The current name wins over a legacy one even when the legacy name sorts later.
    expect(pickImageFile('avatar', ['1-bpfull.jpg', 'zz-avatar2.jpg'])).toBe('1-bpfull.jpg');
    expect(
      pickImageFile('avatar', ['1-bpthumb.jpg', 'a-avatar1.jpg', 'g-groupavatar-thumb.png']),
    ).toBeUndefined();
  });

  it('chooses the greatest name among several candidates, whatever order the listing gave', () => {
    const names = ['1600000000-bpfull.jpg', '1700000000-bpfull.jpg', '1650000000-bpfull.png'];
    expect(pickImageFile('avatar', names)).toBe('1700000000-bpfull.jpg');
    expect(pickImageFile('avatar', [...names].reverse())).toBe('1700000000-bpfull.jpg');
    expect(pickImageFile('cover', ['b.jpg', 'c.png', 'a.webp'])).toBe('c.png');
  });

  it('never takes dot files, empty names or anything with a path in it', () => {
    expect(pickImageFile('cover', ['.htaccess', '.DS_Store', ''])).toBeUndefined();
    expect(pickImageFile('avatar', ['history/1900000000-bpfull.jpg', '..', '.1-bpfull.jpg'])).toBeUndefined();
    expect(pickImageFile('cover', [])).toBeUndefined();
  });
});

describe('imageFolder', () => {
  it('places avatars and covers as BuddyPress does', () => {
    expect(imageFolder('member', 7, 'avatar')).toEqual(['avatars', '7']);
    expect(imageFolder('group', 3, 'avatar')).toEqual(['group-avatars', '3']);
    expect(imageFolder('member', 7, 'cover')).toEqual(['buddypress', 'members', '7', 'cover-image']);
    expect(imageFolder('group', 3, 'cover')).toEqual(['buddypress', 'groups', '3', 'cover-image']);
  });

  it('refuses an id that is not a positive integer, so no path can be formed from it', () => {
    for (const id of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(() => imageFolder('member', id, 'avatar')).toThrow(RangeError);
  });
});

describe('folder adapter', () => {
  const uploads = folderUploads(root);

  it('reads the current full avatar, not the thumbnail, an older full one or history/', async () => {
    const image = await uploads.image('member', 7, 'avatar');
    expect(image?.name).toBe('1700000000-bpfull.jpg');
    expect(text(image?.bytes)).toBe('avatars/7/1700000000-bpfull.jpg');
  });

  it('answers undefined when the only avatar is in history/, or there is no folder', async () => {
    await expect(uploads.image('member', 8, 'avatar')).resolves.toBeUndefined();
    await expect(uploads.image('member', 404, 'avatar')).resolves.toBeUndefined();
    await expect(uploads.image('group', 404, 'cover')).resolves.toBeUndefined();
  });

  it('reads old installs: -avatar2 for members, -groupavatar-full for groups', async () => {
    expect((await uploads.image('member', 9, 'avatar'))?.name).toBe('abc123-avatar2.jpg');
    expect((await uploads.image('group', 4, 'avatar'))?.name).toBe('f00d-groupavatar-full.png');
    expect((await uploads.image('group', 3, 'avatar'))?.name).toBe('1700000000-bpfull.png');
  });

  it('reads covers of members and groups, whatever their name', async () => {
    expect((await uploads.image('member', 7, 'cover'))?.name).toBe('5f3c-bp-cover-image.jpg');
    const cover = await uploads.image('group', 3, 'cover');
    expect(text(cover?.bytes)).toBe('buddypress/groups/3/cover-image/anything.webp');
  });

  it('follows a link that stays inside the location, refuses one leading out of it', async () => {
    expect(text((await uploads.image('member', 11, 'avatar'))?.bytes)).toBe('shared file');
    await expect(uploads.image('member', 12, 'avatar')).rejects.toBeInstanceOf(SourceImageOutside);
    await expect(uploads.image('member', 13, 'avatar')).rejects.toBeInstanceOf(SourceImageOutside);
  });

  it('refuses ids that could traverse, and a file over 10 MB before reading it', async () => {
    await expect(uploads.image('member', -1, 'avatar')).rejects.toThrow(RangeError);
    await expect(uploads.image('group', 0.5, 'cover')).rejects.toThrow(RangeError);
    const tooLarge = uploads.image('member', 14, 'avatar');
    await expect(tooLarge).rejects.toBeInstanceOf(SourceImageTooLarge);
    await expect(tooLarge).rejects.toMatchObject({ size: SOURCE_IMAGE_MAX_BYTES + 1 });
  });

  it('is reachable when the folder exists, not when it is missing or a file', async () => {
    await expect(uploads.reachable()).resolves.toBe(true);
    await expect(folderUploads(join(root, 'missing')).reachable()).resolves.toBe(false);
    await expect(folderUploads(join(root, 'avatars/7/1700000000-bpfull.jpg')).reachable()).resolves.toBe(
      false,
    );
  });
});

describe('uploads location configuration', () => {
  const saved = { ...process.env };
  const configure = (variables: Record<string, string>) => {
    Object.assign(process.env, { TABLE_NAME: 'unit-test-table', BUDDYPRESS_UPLOADS_URL: '', ...variables });
    resetEnvCache();
    resetSecretCache();
  };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
    resetSecretCache();
  });

  it('takes a path, a file:// URL, and refuses other schemes as never reachable', async () => {
    expect((await uploadsAt(pathToFileURL(root).href).image('member', 7, 'avatar'))?.name).toBe(
      '1700000000-bpfull.jpg',
    );
    for (const url of ['http://example.test/uploads', 's3://', 'ftp://host/x'])
      await expect(uploadsAt(url).reachable()).resolves.toBe(false);
    await expect(uploadsAt('ftp://host/x').image('member', 7, 'avatar')).rejects.toThrow(/not supported/);
  });

  it('reads BUDDYPRESS_UPLOADS_URL, else the source secret JSON uploadsUrl; else none', async () => {
    configure({ BUDDYPRESS_URL: 'mysql://root@127.0.0.1:3306/wordpress' });
    await expect(openBuddypressUploads()).resolves.toBeUndefined();

    configure({ BUDDYPRESS_URL: JSON.stringify({ host: 'db', uploadsUrl: root }) });
    await expect((await openBuddypressUploads())?.reachable()).resolves.toBe(true);

    configure({ BUDDYPRESS_URL: JSON.stringify({ host: 'db', uploadsUrl: '' }) });
    await expect(openBuddypressUploads()).resolves.toBeUndefined();

    configure({ BUDDYPRESS_URL: '', BUDDYPRESS_UPLOADS_URL: join(root, 'missing') });
    const missing = await openBuddypressUploads();
    expect(missing).toBeDefined();
    await expect(missing?.reachable()).resolves.toBe(false);
  });
});
