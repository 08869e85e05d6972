import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run fuzz -- --cases N [--seed S]`: the route fuzz test (test/api/route-fuzz.settings.test.ts) alone, with
 * N generated cases per route (each sent as a member and as an administrator) and, if given, another seed than
 * the fixed one `npm test` uses. It starts its own local stack, like `npm test`.
 */
const { values } = parseArgs({
  options: { cases: { type: 'string', default: '1000' }, seed: { type: 'string' } },
  strict: true,
});
const cases = Number(values.cases);
if (!Number.isSafeInteger(cases) || cases < 1) {
  process.stderr.write(`--cases must be a positive integer, got ${values.cases}\n`);
  process.exit(2);
}
if (values.seed !== undefined && !Number.isSafeInteger(Number(values.seed))) {
  process.stderr.write(`--seed must be an integer, got ${values.seed}\n`);
  process.exit(2);
}

const root = resolve(import.meta.dirname, '../../..');
const run = spawnSync(
  resolve(root, 'node_modules/.bin/vitest'),
  ['run', '--project', 'api-settings', 'test/api/route-fuzz.settings.test.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_CASES: String(cases),
      ...(values.seed === undefined ? {} : { FUZZ_SEED: values.seed }),
    },
  },
);
process.exit(run.status ?? 1);
