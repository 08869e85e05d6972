import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

/**
 * Four projects, one per test layer (docs/ARCHITECTURE.md §5). Only `integration` and `api` need the emulators; their
 * shared globalSetup starts them once per vitest process however many of the two run (see test/support/global-setup.ts).
 * globalSetup is set per project, not at the root: the root's would also run for `--project unit`.
 */
const GLOBAL_SETUP = './test/support/global-setup.ts';
const WORKER_ENV = './test/support/worker-env.ts';
/** API test files that change site-wide settings (see the `api-settings` project). */
const SETTINGS_TESTS = 'test/api/**/*.settings.test.ts';
/**
 * Test files at once (every project but `api-settings`, which runs its files alone). vitest's default is one
 * fewer than the cores: one at a time on two. `npm test` asks for more (TEST_WORKERS, test/runner/steps.ts): the
 * stack tests mostly wait on the emulators, so three at once fit on two cores. Set here rather than through
 * VITEST_MAX_WORKERS, which would override `api-settings`' one as well.
 */
const WORKERS = Number(process.env.TEST_WORKERS) || undefined;

/**
 * API test files that inject a fault into the functions' own process (an in-process gateway of their own), or read
 * the in-process meter's `x-local-dynamodb` header: there is no such process in the bundled mode.
 */
const IN_PROCESS_ONLY = [
  'test/api/invitations-email-failure.test.ts',
  'test/api/round-trips.test.ts',
  'test/api/feeds-round-trips.test.ts',
  'test/api/topics-list-cost.test.ts',
  'test/api/topics-read-copies.test.ts',
];

/**
 * The API tests against the bundled mode: each function from its synthesized asset in its own processes, under its
 * synthesized IAM policy. They start a stack of their own (and synthesize first when the sources changed), so a
 * plain `vitest run` (npm test) leaves them out: they are defined only when a `--project` argument names them.
 */
const BUNDLED = process.argv.some((argument) => argument.endsWith('-bundled'));
const BUNDLED_PROJECTS: TestProjectConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'api-bundled',
      include: ['test/api/**/*.test.ts'],
      exclude: [SETTINGS_TESTS, ...IN_PROCESS_ONLY],
      globalSetup: [GLOBAL_SETUP],
      setupFiles: [WORKER_ENV],
      // Cold starts are processes here: the first call of each function takes a moment more.
      testTimeout: 60_000,
    },
  },
  {
    extends: true,
    test: {
      name: 'api-settings-bundled',
      include: [SETTINGS_TESTS],
      exclude: IN_PROCESS_ONLY,
      globalSetup: [GLOBAL_SETUP],
      setupFiles: [WORKER_ENV],
      maxWorkers: 1,
      sequence: { groupOrder: 1 },
      testTimeout: 60_000,
    },
  },
];

export default defineConfig({
  test: {
    pool: 'forks',
    ...(WORKERS ? { maxWorkers: WORKERS } : {}),
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Many of these start processes (the CLI, npm start, workers): seconds each on a busy machine.
          testTimeout: 120_000,
          globalSetup: [GLOBAL_SETUP],
          setupFiles: [WORKER_ENV],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          exclude: [SETTINGS_TESTS],
          globalSetup: [GLOBAL_SETUP],
          setupFiles: [WORKER_ENV],
        },
      },
      {
        // Site-wide settings (topic configuration, disable_global_posts) change what every other request may do,
        // so the files that change them run after every other file, one at a time, and restore the defaults.
        extends: true,
        test: {
          name: 'api-settings',
          include: [SETTINGS_TESTS],
          globalSetup: [GLOBAL_SETUP],
          setupFiles: [WORKER_ENV],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 120_000 },
      },
      // The same API tests against the bundled mode (`npm run test:bundled`): only when asked for by name.
      ...(BUNDLED ? BUNDLED_PROJECTS : []),
    ],
  },
});
