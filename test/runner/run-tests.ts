import { parseArgs } from 'node:util';
import { ensurePrerequisites, type Need } from './prerequisites.ts';
import { LOG_DIR, ROOT, runStep, type StepResult, stopAllSteps } from './run-step.ts';
import { LANES, type Step } from './steps.ts';

/**
 * `npm test`: the one test command, here and in CI (`.ci/run`). It makes sure the machine has what the tests
 * need (prerequisites.ts), then runs every step of steps.ts, lanes side by side, and prints only what a reader
 * needs: a line per step (passed or failed, counts, time), the failures, and where the whole output is.
 */
const USAGE = `usage: npm test [-- [--only STEP[,STEP…]] [--no-install] [--list]]
  --only STEPS   run only these steps (names from --list, comma-separated)
  --no-install   never install missing system packages; say what is missing instead (or TEST_INSTALL=no)
  --list         list the steps and what each needs
Every step's whole output goes to test-output/logs/. Example: npm test -- --only typecheck,lint
`;

const say = (line: string) => process.stdout.write(`${line}\n`);

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

function options() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      only: { type: 'string' },
      'no-install': { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  return values;
}

function chosenLanes(only: string | undefined): Step[][] {
  if (only === undefined) return LANES.map((lane) => [...lane]);
  const names = only.split(',').map((name) => name.trim());
  const known = LANES.flat().map((step) => step.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new Error(`unknown step ${unknown.join(', ')}; the steps: ${known.join(', ')}`);
  return LANES.map((lane) => lane.filter((step) => names.includes(step.name))).filter((lane) => lane.length);
}

function report(result: StepResult): void {
  const mark = result.passed ? 'ok  ' : 'FAIL';
  const counts = result.counts ? `${result.counts}, ` : '';
  say(`${mark} ${result.step.name.padEnd(22)} ${counts}${duration(result.seconds)}`);
  if (!result.passed) {
    for (const line of result.details) say(`       ${line}`);
    say(`       whole output: ${result.log}`);
  }
}

async function main(): Promise<number> {
  const values = options();
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const lanes = chosenLanes(values.only);
  if (values.list) {
    for (const step of LANES.flat()) {
      say(
        `${step.name.padEnd(22)} ${step.command.join(' ')}${step.needs ? `  (needs ${step.needs.join(', ')})` : ''}`,
      );
    }
    return 0;
  }
  const started = performance.now();
  const needs = new Set<Need>(lanes.flat().flatMap((step) => step.needs ?? []));
  const missing = ensurePrerequisites(needs, {
    install: !values['no-install'] && process.env.TEST_INSTALL !== 'no',
    log: (line) => say(`npm test: ${line}`),
  });
  if (missing.length > 0) {
    for (const line of missing) say(`npm test: ${line}`);
    return 1;
  }
  const count = lanes.flat().length;
  say(
    `npm test: ${count} step${count === 1 ? '' : 's'} in ${lanes.length} lane${lanes.length === 1 ? '' : 's'}; whole output in ${LOG_DIR.slice(ROOT.length + 1)}/`,
  );
  const results = (
    await Promise.all(
      lanes.map(async (lane) => {
        const done: StepResult[] = [];
        for (const step of lane) {
          const result = await runStep(step);
          report(result);
          done.push(result);
        }
        return done;
      }),
    )
  ).flat();
  const failed = results.filter((result) => !result.passed).map((result) => result.step.name);
  const total = duration((performance.now() - started) / 1000);
  say(
    failed.length === 0
      ? `npm test: passed in ${total}`
      : `npm test: FAILED (${failed.join(', ')}) in ${total}`,
  );
  return failed.length === 0 ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    stopAllSteps();
    process.exit(130);
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`npm test: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  },
);
