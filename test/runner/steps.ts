import type { Need } from './prerequisites.ts';

/**
 * What `npm test` runs: lanes that run side by side, each a list of steps run one after the other. A new step is
 * one line in a lane (or a new lane); `npm test -- --only NAME` runs chosen steps.
 *
 * Two lanes, because the stack tests are the long pole and mostly wait (on the emulators, redeliveries, the
 * gateway), while typecheck, lint and the stack-free tests mostly compute: on two cores the second lane fits in
 * the first one's waiting. The stack lane runs its files three at a time (`workers`); the `api-settings` project
 * still runs its files alone, after the others (vitest.config.ts).
 */
export interface Step {
  readonly name: string;
  /** A program (node_modules/.bin first, then PATH) and its arguments, e.g. `['npm', 'run', 'test:bundled']`. */
  readonly command: readonly string[];
  /** What the machine must have first (prerequisites.ts). */
  readonly needs?: readonly Need[];
  /** A vitest run: its counts and failures are read from its JSON report. */
  readonly vitest?: boolean;
  readonly env?: Readonly<Record<string, string>>;
}

const vitest = (name: string, projects: readonly string[], extra: Partial<Step> = {}): Step => ({
  name,
  command: ['vitest', 'run', ...projects.flatMap((project) => ['--project', project])],
  vitest: true,
  ...extra,
});

export const LANES: readonly (readonly Step[])[] = [
  [
    vitest('stack-tests', ['integration', 'api', 'api-settings'], {
      needs: ['java', 'mariadb', 'chromium'],
      env: { TEST_WORKERS: '3' },
    }),
  ],
  [
    { name: 'typecheck', command: ['npm', 'run', '-s', 'typecheck'] }, // writes the generated entry files first
    { name: 'lint', command: ['biome', 'check', '.'] },
    vitest('unit-and-infra', ['unit', 'infra']),
  ],
];
