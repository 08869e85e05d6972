import { resolve } from 'node:path';
import { commandLine, usageError } from '../command-line.ts';
import type { Fixture } from './generate.ts';
import { loadBuddypressFixture } from './load.ts';
import { imageCounts, writeBuddypressUploads } from './uploads.ts';

/**
 * `npm run fixture:buddypress -- --database NAME …`: creates a BuddyPress database in MariaDB and prints, as JSON,
 * the rows written and the counts a migration's `results` must show (decisions.md "Migrations"). With `--uploads`,
 * also its uploads folder (avatars, covers; point BUDDYPRESS_UPLOADS_URL at it) and the images a copy must find
 * (`expected_images`). `--database` has no default, and a database this fixture did not create is never replaced
 * (load.ts): the command cannot drop someone's `wordpress`.
 */
const USAGE = `usage: npm run fixture:buddypress -- --database NAME [options]
  --database NAME     the database to create (required); one this fixture made before is replaced, any other
                      existing database is refused
  --prefix P          table prefix (default wp_)
  --groups N          groups (default 20)
  --members N         members (default 200)
  --activities N      activity updates (default 1000)
  --seed S            generator seed (default 20261123): the same seed gives the same rows
  --server URL        the MariaDB server (default mysql://root@127.0.0.1:3306)
  --uploads DIR       also write the site's uploads folder (avatars, covers) into DIR
example:
  npm run fixture:buddypress -- --database bp_demo --groups 5 --members 50 --activities 200
  BUDDYPRESS_URL=mysql://root@127.0.0.1:3306/bp_demo npm start`;

const { values } = commandLine({
  usage: USAGE,
  options: {
    database: { type: 'string' },
    prefix: { type: 'string', default: 'wp_' },
    groups: { type: 'string', default: '20' },
    members: { type: 'string', default: '200' },
    activities: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '20261123' },
    server: { type: 'string', default: 'mysql://root@127.0.0.1:3306' },
    uploads: { type: 'string' },
  },
});
if (values.database === undefined || values.database === '') {
  usageError(
    USAGE,
    '--database is required: the fixture creates that database (and never replaces one it did not make).',
  );
}
const count = (name: string, value: string | undefined): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) usageError(USAGE, `--${name} must be a whole number`);
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
let fixture: Fixture;
try {
  fixture = await loadBuddypressFixture(size);
} catch (error) {
  const code = (error as { code?: string }).code ?? '';
  const unreachable =
    /^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ER_ACCESS_DENIED_ERROR|ER_DBACCESS_DENIED_ERROR)$/.test(code);
  const reason = unreachable ? `${values.server}: ${(error as Error).message}` : (error as Error).message;
  const hint = unreachable ? ' (is MariaDB running there, and may that user connect? --server URL)' : '';
  process.stderr.write(`fixture:buddypress: ${reason}${hint}\n`);
  process.exit(1);
}
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
