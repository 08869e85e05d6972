import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { completedMigration } from '../../shared/domain/migrations/migration-mapper.ts';
import { findMigratedSpaces } from '../support/migrated-targets.ts';
import { startMigration } from '../../shared/domain/migrations/start-migration.ts';
import { findSpacesByIds } from '../../shared/domain/spaces/index.ts';
import { api } from '../support/api.ts';
import { FIXTURE_IMAGE_SIZES } from '../support/buddypress/uploads.ts';
import { drive } from '../support/migration-driver.ts';
import { useUploadsSource } from '../support/migration-uploads.ts';
import { ALL_ITEMS, ALL_OPTIONS } from '../support/migrations.ts';
import { expectedResults } from '../support/migration-results.ts';

/**
 * Avatars and covers: with the source's uploads location configured (`BUDDYPRESS_UPLOADS_URL`, a folder here),
 * a run copies each migrated member's and group's current full-size avatar and cover into the media bucket,
 * re-encoded, and sets them on the profile (`avatar`, `cover_photo`) and the space (`logo`, `cover_photo`); the
 * copies are the member's (or the group creator's) media, counted in their media list; an image that cannot be
 * copied is reported in `errors` without failing its row; a second run copies nothing again. The run is driven
 * from this process (test/support/migration-driver.ts), whose environment names the folder.
 */
const SIZE = { groups: 8, members: 40, activities: 60, seed: 23, idBase: 4_000_000 };
const source = useUploadsSource(SIZE);

const options = ALL_OPTIONS;
const items = ALL_ITEMS;
const login = (sourceId: number) => `bpuser${sourceId}`;

/** The picture at a URL the API gave: fetched over HTTP, its format and size. */
async function picture(url: unknown) {
  expect(typeof url).toBe('string');
  const response = await fetch(String(url));
  expect(response.status).toBe(200);
  return sharp(Buffer.from(await response.arrayBuffer())).metadata();
}

type Profile = { avatar: string; cover_photo: string };
const profileOf = async (sourceId: number) =>
  (await api<{ profile: Profile }>('GET', `/profile/${login(sourceId)}`, { as: source.admin })).body.profile;

describe('avatars and covers', () => {
  it('are copied, set on profiles and spaces, listed as the owners’ media; a bad file is an error, not a failure', async () => {
    // One member's avatar files start as a JPEG and break off: the chunk names the copy (magic bytes), the images
    // worker cannot decode it, reports it and clears the URL the chunk set.
    const broken = source.fixture.expected.images.members.avatars.at(-1)!;
    const brokenDir = join(source.folder, 'avatars', String(broken));
    for (const file of await readdir(brokenDir, { withFileTypes: true }))
      if (file.isFile())
        await writeFile(join(brokenDir, file.name), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]));
    await startMigration(source.caller, 'buddypress', { items, options });
    // Every chunk counted, no image stored yet: the run waits before its tally (which sums the images' counters
    // too), and is not complete; the profiles show the URLs their copies will have.
    const waiting = await drive(source.queue, { holdImages: true, untilIdle: true });
    expect(waiting.run?.status).toBe('in_progress');
    expect(waiting.run?.phase).toBe('tally');
    expect(waiting.run).not.toHaveProperty('chunks_total_tally');
    const firstAvatar = source.fixture.expected.images.members.avatars[0]!;
    const named = (await profileOf(firstAvatar)).avatar;
    expect(named).toMatch(/^https?:\/\/.+\/media\/\d+-[\w-]+\/file\.\w+$/);
    expect((await fetch(named)).status).not.toBe(200);
    // Each images message delivered twice at once: stored, counted and reported once.
    const { run } = await drive(source.queue, { imagesTwice: true });
    expect(run?.status).toBe('completed');
    expect((await profileOf(firstAvatar)).avatar).toBe(named);
    const done = completedMigration(run!);
    expect(done.results).toEqual(expectedResults(source.fixture));
    expect(done.errors.filter((error) => error.id === String(broken))).toEqual([
      {
        item: 'members',
        id: String(broken),
        error: expect.stringMatching(/^member \d+ avatar ".+" not copied: The image could not be decoded\.$/),
      },
    ]);
    expect((await profileOf(broken)).avatar).toBe('');

    const { images } = source.fixture.expected;
    expect(images.members.avatars.length).toBeGreaterThan(1);
    for (const id of images.members.avatars.filter((one) => one !== broken)) {
      const meta = await picture((await profileOf(id)).avatar);
      expect([meta.width, meta.height]).toEqual([
        FIXTURE_IMAGE_SIZES.avatar.width,
        FIXTURE_IMAGE_SIZES.avatar.height,
      ]);
    }
    for (const id of images.members.covers) {
      const meta = await picture((await profileOf(id)).cover_photo);
      expect([meta.width, meta.height]).toEqual([
        FIXTURE_IMAGE_SIZES.cover.width,
        FIXTURE_IMAGE_SIZES.cover.height,
      ]);
    }
    // A member with no upload (or only a `history/` one) keeps no avatar.
    const creators = new Set(source.fixture.tables.bp_groups!.rows.map((row) => Number(row[1])));
    const without = [...creators].find((id) => !images.members.avatars.includes(id));
    if (without !== undefined) expect((await profileOf(without)).avatar).toBe('');

    // The copies are the member's media, attached to the profile, and counted.
    const member =
      images.members.covers.find((id) => id !== broken && images.members.avatars.includes(id)) ??
      images.members.avatars[0]!;
    const mediaTotal = async (filter = '') =>
      (
        await api<{ meta: { total: number } }>('GET', `/profile/${login(member)}/media${filter}`, {
          as: source.admin,
        })
      ).body.meta.total;
    // Their media: their own two (attached to the profile), and those of the groups they created (to the space).
    const own =
      Number(images.members.avatars.includes(member)) + Number(images.members.covers.includes(member));
    const ofTheirGroups = source.fixture.tables
      .bp_groups!.rows.filter((row) => Number(row[1]) === member)
      .map((row) => Number(row[0]))
      .reduce(
        (sum, id) =>
          sum + Number(images.groups.avatars.includes(id)) + Number(images.groups.covers.includes(id)),
        0,
      );
    expect(await mediaTotal()).toBe(own + ofTheirGroups);
    expect(await mediaTotal('?object_source=profile')).toBe(own);
    expect(await mediaTotal('?object_source=space')).toBe(ofTheirGroups);

    const groupIds = source.fixture.tables.bp_groups!.rows.map((row) => Number(row[0]));
    const spaceIds = await findMigratedSpaces('buddypress', groupIds);
    const spaces = await findSpacesByIds([...spaceIds.values()]);
    for (const id of images.groups.avatars) {
      const meta = await picture(spaces.get(spaceIds.get(id)!)?.logo);
      expect(meta.width).toBe(FIXTURE_IMAGE_SIZES.avatar.width);
    }
    for (const id of images.groups.covers) {
      const meta = await picture(spaces.get(spaceIds.get(id)!)?.cover_photo);
      expect(meta.width).toBe(FIXTURE_IMAGE_SIZES.cover.width);
    }

    // The file that is not an image: reported against its group, the group itself migrated.
    expect(images.problems).toHaveLength(1);
    const problem = images.problems[0]!;
    expect(done.errors).toContainEqual({
      item: 'groups',
      id: String(problem.id),
      error: expect.stringContaining('cover'),
    });
    expect(done.errors.filter((error) => error.id === String(problem.id))).toHaveLength(1);
    expect(spaces.get(spaceIds.get(problem.id)!)?.cover_photo).toBe('');
  }, 240_000);

  it('a second run copies nothing again: the media lists keep their counts', async () => {
    const member = source.fixture.expected.images.members.avatars[0]!;
    const before = await api<{ meta: { total: number } }>('GET', `/profile/${login(member)}/media`, {
      as: source.admin,
    });
    await startMigration(source.caller, 'buddypress', { items, options });
    const { run } = await drive(source.queue, {});
    expect(run?.status).toBe('completed');
    expect(completedMigration(run!).results).toEqual(expectedResults(source.fixture, true));
    const after = await api<{ meta: { total: number } }>('GET', `/profile/${login(member)}/media`, {
      as: source.admin,
    });
    expect(after.body.meta.total).toBe(before.body.meta.total);
    expect((await profileOf(member)).avatar).not.toBe('');
  }, 240_000);
});
