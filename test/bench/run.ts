import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Benchmark entry: `npm run bench -- <name> [options]` runs test/bench/<name>.ts. Benchmarks print figures and are
 * never part of `npm test`. `--help` lists them (and `<name> --help` one benchmark's options) without running one.
 */
const BENCHES: Record<string, { about: string; options?: string[]; example?: string }> = {
  notifications: { about: 'notification list and unread count cost at 1 000 and 100 000 notifications' },
  'notifications-bulk': { about: 'mark-all-read and delete-all of 1 000 and 100 000 notifications' },
  feeds: { about: 'GET /feeds page 1 cost at 1 000 and 100 000 feeds, unfiltered and filtered' },
  topics: { about: 'GET /admin/topics page 1 cost at 1 000 and 10 000 topics' },
  quizzes: { about: "administrators' quiz results page 1 cost at 100 and 100 000 submissions" },
  courses: { about: 'course administration and its comments at 20 and 5 000 students' },
  profiles: { about: 'profile reads of a member with 10 and with 10 000 feeds and comments' },
  live: {
    about:
      "live events: time from the causing comment's answer to the event on the socket (200 events), units per event",
  },
  idempotency: {
    about:
      'the extra cost of an Idempotency-Key on a write (units, latency), a replay, and a 304 vs a 200 on GET /feeds',
  },
  migration: {
    about:
      'a BuddyPress migration at the acceptance size against a bare BatchWriteItem loop (a MariaDB server of its own)',
    options: [
      '--groups N       groups (default 200)',
      '--members N      members (default 5000)',
      '--activities N   activity updates (default 50000)',
      '--server URL     an existing MariaDB server (mysql://user:password@host:port)',
    ],
    example: 'npm run bench -- migration --groups 20 --members 500 --activities 5000',
  },
};

const USAGE = [
  'usage: npm run bench -- <name> [options]     (<name> --help for its options)',
  ...Object.entries(BENCHES).map(([name, bench]) => `  ${name.padEnd(20)} ${bench.about}`),
  'example: npm run bench -- migration --groups 20 --members 500 --activities 5000',
].join('\n');

const [name, ...rest] = process.argv.slice(2);
const asksHelp = (args: readonly (string | undefined)[]) =>
  args.some((arg) => arg === '--help' || arg === '-h');
if (name === undefined || asksHelp([name])) {
  (name === undefined ? process.stderr : process.stdout).write(`${USAGE}\n`);
  process.exit(name === undefined ? 2 : 0);
}
const bench = BENCHES[name];
if (!bench || !existsSync(join(import.meta.dirname, `${name}.ts`))) {
  process.stderr.write(`Unknown benchmark "${name}".\n${USAGE}\n`);
  process.exit(2);
}
if (asksHelp(rest)) {
  process.stdout.write(
    [
      `usage: npm run bench -- ${name}${bench.options ? ' [options]' : ''}`,
      bench.about,
      ...(bench.options ?? []).map((line) => `  ${line}`),
      `example: ${bench.example ?? `npm run bench -- ${name}`}`,
    ].join('\n') + '\n',
  );
  process.exit(0);
}
await import(`./${name}.ts`);
