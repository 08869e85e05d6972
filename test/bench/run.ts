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
  topics: {
    about:
      'GET /admin/topics page 1 cost (lists, search) at 1 000 and 10 000 topics; DELETE of a topic on 1 000 and 10 000 feeds',
    options: [
      '--sizes N,N   topics measured (default 1000,10000)',
      '--feeds N,N   feeds of each deleted topic (default 1000,10000)',
    ],
    example: 'npm run bench -- topics --sizes 1000,3000 --feeds 1000,3000',
  },
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
  heat: {
    about:
      'partition heat of a realistic mix through the gateway at 16 in flight: hottest partitions, ceilings (100 and 400 members)',
    options: [
      '--members N      one community of N members instead of the default two (100 and 400)',
      '--spaces N       spaces (default members / 6); each member joins three',
      '--requests N     requests of the mix measured per size (default 1200)',
      'mix (% of requests): GET /feeds 24, GET /feeds?topics 4, GET /feeds?space_id 4, GET /feeds/{id} 12,',
      '  GET /feeds/{id}/comments 6, POST /feeds/{id}/comments 6, POST /feeds/{id}/react 8, POST /feeds 4,',
      '  POST /profile/{u}/follow 2, DELETE /profile/{u}/follow 1, GET /notifications 6, GET /notifications/unread 4,',
      '  POST /notifications/mark-all-read 2, GET /profile/{u} 5, GET /profile/me 3, GET /profile/{u}/spaces 2,',
      '  POST …/quiz/submit 3, GET …/quiz/result 1, PUT …/completion 2, GET /admin/topics 1',
    ],
    example: 'npm run bench -- heat --members 300 --spaces 50',
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
