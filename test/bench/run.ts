/**
 * Benchmark entry: `npm run bench -- <name>` runs test/bench/<name>.ts (`notifications`, `notifications-bulk`,
 * `feeds`, `topics`, `quizzes`, `courses`, `profiles`, `migration`). Benchmarks print
 * figures and are never part of `npm test`.
 */
const name = process.argv[2];
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  process.stderr.write(
    'usage: npm run bench -- <name>   (notifications, notifications-bulk, feeds, topics, quizzes, courses, profiles, migration)\n',
  );
  process.exit(2);
}
await import(`./${name}.ts`);
