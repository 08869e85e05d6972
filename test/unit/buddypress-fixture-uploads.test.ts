import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderUploads } from '../../shared/integrations/buddypress/folder-uploads.ts';
import type { UploadsImage, UploadsOwner } from '../../shared/integrations/buddypress/uploads.ts';
import { generateFixture } from '../support/buddypress/generate.ts';
import {
  type ExpectedImages,
  FIXTURE_IMAGE_SIZES,
  imageCounts,
  writeBuddypressUploads,
} from '../support/buddypress/uploads.ts';

/**
 * The fixture's uploads folder read back by the folder adapter: exactly the expected images are found, each the
 * full-size one (its dimensions say so), and the one non-image is found as a file sharp cannot read.
 */
const SIZE = { groups: 9, members: 40, activities: 220, seed: 7, idBase: 500 };
const dir = mkdtempSync(join(tmpdir(), 'bp-fixture-uploads-'));
const fixture = generateFixture(SIZE);
const uploads = folderUploads(dir);
let expected: ExpectedImages;

beforeAll(async () => {
  expected = await writeBuddypressUploads(dir, fixture);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const groupIds = () => (fixture.tables.bp_groups?.rows ?? []).map((row) => row[0] as number);
const creatorIds = () => [...new Set((fixture.tables.bp_groups?.rows ?? []).map((row) => row[1] as number))];

async function dimensions(owner: UploadsOwner, id: number, kind: UploadsImage) {
  const image = await uploads.image(owner, id, kind);
  if (!image) return undefined;
  const { width, height } = await sharp(image.bytes).metadata();
  return { width, height };
}

describe('fixture uploads folder', () => {
  it('gives members (group creators) and groups every kind of image, and one problem', () => {
    const counts = imageCounts(expected);
    expect(counts.members.avatars).toBeGreaterThanOrEqual(3);
    expect(counts.members.covers).toBeGreaterThanOrEqual(2);
    expect(counts.groups.avatars).toBeGreaterThanOrEqual(3);
    expect(counts.groups.covers).toBeGreaterThanOrEqual(2);
    expect(expected.problems).toHaveLength(1);
    for (const id of [...expected.members.avatars, ...expected.members.covers])
      expect(creatorIds()).toContain(id);
    // Ids are the tables' own (idBase included).
    expect(Math.min(...groupIds(), ...creatorIds())).toBeGreaterThan(SIZE.idBase);
  });

  it('finds exactly the expected member images, each the full-size one', async () => {
    for (const id of creatorIds()) {
      const avatar = await dimensions('member', id, 'avatar');
      const cover = await dimensions('member', id, 'cover');
      expect(avatar, `member ${id}`).toEqual(
        expected.members.avatars.includes(id) ? FIXTURE_IMAGE_SIZES.avatar : undefined,
      );
      expect(cover, `member ${id}`).toEqual(
        expected.members.covers.includes(id) ? FIXTURE_IMAGE_SIZES.cover : undefined,
      );
    }
  });

  it('finds exactly the expected group images, and the problem file is not an image', async () => {
    const problem = expected.problems[0];
    for (const id of groupIds()) {
      expect(await dimensions('group', id, 'avatar'), `group ${id}`).toEqual(
        expected.groups.avatars.includes(id) ? FIXTURE_IMAGE_SIZES.avatar : undefined,
      );
      if (problem?.id === id) continue;
      expect(await dimensions('group', id, 'cover'), `group ${id}`).toEqual(
        expected.groups.covers.includes(id) ? FIXTURE_IMAGE_SIZES.cover : undefined,
      );
    }
    expect(problem?.kind).toBe('cover');
    const file = await uploads.image('group', problem?.id ?? 0, 'cover');
    expect(file).toBeDefined();
    await expect(sharp(file?.bytes).metadata()).rejects.toThrow();
  });

  it('writes the same folder again (emptied first), so a reload does not accumulate files', async () => {
    const again = await writeBuddypressUploads(dir, fixture);
    expect(again).toEqual(expected);
  });
});
