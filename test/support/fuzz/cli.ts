import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { commandLine, usageError } from '../command-line.ts';

/**
 * `npm run fuzz -- --cases N [--seed S]`: the route fuzz test (test/api/route-fuzz.settings.test.ts) alone, with
 * N generated cases per route (each sent as a member and as an administrator) and, if given, another seed than
 * the fixed one `npm test` uses. It starts its own local stack, like `npm test`.
 */
const USAGE = `usage: npm run fuzz -- [--cases N] [--seed S]
  --cases N   generated requests per route, each sent as a member and as an administrator (default 1000;
              npm test uses 150): valid, boundary or hostile; then requests valid in every part until one
              gets past validation
  --seed S    another seed than npm test's fixed one (fast-check prints the seed of a failure to replay it)
example:
  npm run fuzz -- --cases 2000 --seed 42`;

const { values } = commandLine({
  usage: USAGE,
  options: { cases: { type: 'string', default: '1000' }, seed: { type: 'string' } },
});
const cases = Number(values.cases);
if (!Number.isSafeInteger(cases) || cases < 1)
  usageError(USAGE, `--cases must be a positive integer, got ${values.cases}`);
if (values.seed !== undefined && !Number.isSafeInteger(Number(values.seed))) {
  usageError(USAGE, `--seed must be an integer, got ${values.seed}`);
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
