import { parseArgs } from 'node:util';
import { loadBuddypressFixture } from './load.ts';

/**
 * `npm run fixture:buddypress -- --database NAME --prefix P --groups N --members N --activities N [--seed S]
 * [--server mysql://root@127.0.0.1:3306]`: creates a BuddyPress database in MariaDB and prints, as JSON, the rows
 * written and the counts a migration's `results` must show (decisions.md "Migrations").
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
const started = Date.now();
const fixture = await loadBuddypressFixture({
  database: values.database,
  prefix: values.prefix,
  serverUrl: values.server,
  groups: count('groups', values.groups),
  members: count('members', values.members),
  activities: count('activities', values.activities),
  seed: count('seed', values.seed),
});
process.stdout.write(
  `${JSON.stringify(
    {
      database: values.database,
      prefix: values.prefix,
      rows: fixture.rowCounts,
      expected_results: fixture.expected,
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
