import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Fixture } from './generate.ts';
import { loadBuddypressFixture } from './load.ts';
import { imageCounts, writeBuddypressUploads } from './uploads.ts';

/**
 * `npm run fixture:buddypress -- --database NAME --prefix P --groups N --members N --activities N [--seed S]
 * [--server mysql://root@127.0.0.1:3306] [--uploads DIR]`: creates a BuddyPress database in MariaDB and prints, as
 * JSON, the rows written and the counts a migration's `results` must show (decisions.md "Migrations"). With
 * `--uploads`, also its uploads folder in DIR (avatars, covers; point BUDDYPRESS_UPLOADS_URL at it) and the
 * images a copy must find (`expected_images`).
 */
const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'wordpress' },
    prefix: { type: 'string', default: 'wp_' },
    groups: { type: 'string', default: '20' },
    members: { type: 'string', default: '200' },
    activities: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '20261123' },
    server: { type: 'string', default: 'mysql://root@127.0.0.1:3306' },
    uploads: { type: 'string' },
  },
});
const count = (name: string, value: string | undefined): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a whole number\n`);
    process.exit(2);
  }
  return n;
};
const uploadsDir =
  values.uploads === undefined ? undefined : resolve(process.env.INIT_CWD ?? '.', values.uploads);
const started = Date.now();
const size = {
  database: values.database,
  prefix: values.prefix,
  serverUrl: values.server,
  groups: count('groups', values.groups),
  members: count('members', values.members),
  activities: count('activities', values.activities),
  seed: count('seed', values.seed),
};
const fixture: Fixture = await loadBuddypressFixture(size);
const images = uploadsDir === undefined ? undefined : await writeBuddypressUploads(uploadsDir, fixture);
process.stdout.write(
  `${JSON.stringify(
    {
      database: values.database,
      prefix: values.prefix,
      rows: fixture.rowCounts,
      expected_results: fixture.expected,
      ...(images ? { uploads: uploadsDir, expected_images: imageCounts(images) } : {}),
      unmappable: {
        activities: fixture.unmappable.activities.length,
        comments: fixture.unmappable.comments.length,
      },
      seconds: (Date.now() - started) / 1000,
    },
    null,
    2,
  )}\n`,
);
