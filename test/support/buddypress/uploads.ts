import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { UploadsImage, UploadsOwner } from '../../../shared/integrations/buddypress/uploads.ts';
import type { Fixture } from './generate.ts';

/**
 * A BuddyPress uploads folder (`wp-content/uploads`) for a generated data set (research/buddypress.md §1.9, §5.2):
 * tiny real images made with sharp, laid out and named as BuddyPress does, with the files a copy must leave alone
 * (thumbnails, an older full avatar left behind, `history/`), and one file that is not an image. Which member or
 * group gets what depends only on its position, so the same data set always gets the same folder.
 */
export interface ExpectedImages {
  /**
   * Source ids (as in the tables, `idBase` included) whose image must be copied. Member images belong to group
   * creators only, so a run that migrates `groups` creates every profile they go to.
   */
  readonly members: { readonly avatars: readonly number[]; readonly covers: readonly number[] };
  readonly groups: { readonly avatars: readonly number[]; readonly covers: readonly number[] };
  /** Images found but not copyable (their bytes are not an image): each one a problem, never a failed row. */
  readonly problems: readonly {
    readonly owner: UploadsOwner;
    readonly id: number;
    readonly kind: UploadsImage;
  }[];
}

/**
 * Every image that must be copied has these dimensions; the files that must not be (thumbnails 50×50, older and
 * `history/` avatars 120×120) have others, so a copy of the wrong file shows in the stored item's width.
 */
export const FIXTURE_IMAGE_SIZES = {
  avatar: { width: 150, height: 150 },
  cover: { width: 300, height: 100 },
} as const;

const DAY = 86_400;
const NOT_AN_IMAGE = Buffer.from('<?php // not a picture: a cover-image folder may hold anything\n');

type Format = 'jpeg' | 'png' | 'webp';
const EXTENSIONS: Record<Format, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

/** Makes each (size, format) once: the folder may hold hundreds of copies of a few pictures. */
function imageMaker() {
  const made = new Map<string, Promise<Buffer>>();
  return (width: number, height: number, format: Format): Promise<Buffer> => {
    const key = `${width}x${height}.${format}`;
    let image = made.get(key);
    if (!image) {
      const background = { r: (width * 7) % 256, g: (height * 13) % 256, b: format.length * 40 };
      image = sharp({ create: { width, height, channels: 3, background } })
        .toFormat(format)
        .toBuffer();
      made.set(key, image);
    }
    return image;
  };
}

/**
 * Writes the uploads of `fixture` under `dir` and answers what a copy must find. The three folders it manages
 * (`avatars`, `group-avatars`, `buddypress`) are emptied first; nothing else in `dir` is touched.
 *
 * Group creators, by position i in ascending id order: i%5 = 0 a `-bpfull`/`-bpthumb` pair, an older `-bpfull`
 * left behind and a `history/` one; 1 a pair and a cover; 2 legacy `-avatar1`/`-avatar2`; 3 a cover, and an
 * avatar only in `history/` (not copied); 4 nothing. Groups, by position j: j%4 = 0 a pair and a cover; 1 legacy
 * `-groupavatar-thumb`/`-full`; 2 a cover (the first such group's cover is not an image); 3 nothing.
 */
export async function writeBuddypressUploads(
  dir: string,
  fixture: Pick<Fixture, 'tables'>,
): Promise<ExpectedImages> {
  await Promise.all(
    ['avatars', 'group-avatars', 'buddypress'].map((sub) =>
      rm(join(dir, sub), { recursive: true, force: true }),
    ),
  );
  const image = imageMaker();
  const files: [string, Promise<Buffer> | Buffer][] = [];
  const put = (path: string, bytes: Promise<Buffer> | Buffer) => files.push([path, bytes]);
  const full = (format: Format) => image(150, 150, format);
  const thumb = (format: Format) => image(50, 50, format);
  const older = (format: Format) => image(120, 120, format);
  const cover = (format: Format) => image(300, 100, format);
  const expected = {
    members: { avatars: [] as number[], covers: [] as number[] },
    groups: { avatars: [] as number[], covers: [] as number[] },
    problems: [] as { owner: UploadsOwner; id: number; kind: UploadsImage }[],
  };

  const groupRows = fixture.tables.bp_groups?.rows ?? [];
  const creators = [...new Set(groupRows.map((row) => row[1] as number))].sort((a, b) => a - b);
  creators.forEach((id, i) => {
    const time = 1_600_000_000 + id * 60;
    const avatars = `avatars/${id}`;
    const covers = `buddypress/members/${id}/cover-image`;
    const pattern = i % 5;
    if (pattern === 0 || pattern === 1) {
      const format: Format = pattern === 0 ? 'jpeg' : 'png';
      const ext = EXTENSIONS[format];
      put(`${avatars}/${time}-bpfull.${ext}`, full(format));
      put(`${avatars}/${time}-bpthumb.${ext}`, thumb(format));
      if (pattern === 0) {
        put(`${avatars}/${time - DAY}-bpfull.${ext}`, older(format));
        put(`${avatars}/history/${time - 2 * DAY}-bpfull.${ext}`, older(format));
      }
      expected.members.avatars.push(id);
    } else if (pattern === 2) {
      const hash = (id * 2_654_435_761).toString(16).padStart(12, '0');
      put(`${avatars}/${hash}-avatar1.jpg`, thumb('jpeg'));
      put(`${avatars}/${hash}-avatar2.jpg`, full('jpeg'));
      expected.members.avatars.push(id);
    } else if (pattern === 3) {
      put(`${avatars}/history/${time}-bpfull.jpg`, older('jpeg'));
    }
    if (pattern === 1 || pattern === 3) {
      put(
        `${covers}/${id.toString(16)}-bp-cover-image.${pattern === 1 ? 'jpg' : 'png'}`,
        cover(pattern === 1 ? 'jpeg' : 'png'),
      );
      expected.members.covers.push(id);
    }
  });

  let problemWritten = false;
  groupRows.forEach((row, j) => {
    const id = row[0] as number;
    const time = 1_650_000_000 + id * 60;
    const avatars = `group-avatars/${id}`;
    const covers = `buddypress/groups/${id}/cover-image`;
    const pattern = j % 4;
    if (pattern === 0) {
      put(`${avatars}/${time}-bpfull.jpg`, full('jpeg'));
      put(`${avatars}/${time}-bpthumb.jpg`, thumb('jpeg'));
      put(`${covers}/${time}-bp-cover-image.webp`, cover('webp'));
      expected.groups.avatars.push(id);
      expected.groups.covers.push(id);
    } else if (pattern === 1) {
      put(`${avatars}/${id}-groupavatar-thumb.png`, thumb('png'));
      put(`${avatars}/${id}-groupavatar-full.png`, full('png'));
      expected.groups.avatars.push(id);
    } else if (pattern === 2 && !problemWritten) {
      put(`${covers}/${time}-bp-cover-image.jpg`, NOT_AN_IMAGE);
      expected.problems.push({ owner: 'group', id, kind: 'cover' });
      problemWritten = true;
    } else if (pattern === 2) {
      put(`${covers}/${time}-bp-cover-image.jpg`, cover('jpeg'));
      expected.groups.covers.push(id);
    }
  });

  for (const [path, bytes] of files) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, await bytes);
  }
  return expected;
}

/** The counts a run's report needs, from the expected ids. */
export const imageCounts = (images: ExpectedImages) => ({
  members: { avatars: images.members.avatars.length, covers: images.members.covers.length },
  groups: { avatars: images.groups.avatars.length, covers: images.groups.covers.length },
  problems: images.problems.length,
});
