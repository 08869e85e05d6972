import { defineConfig } from 'vitest/config';

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
    ],
  },
});
