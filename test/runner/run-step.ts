import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Step } from './steps.ts';

/**
 * Runs one step of `npm test` as a child process whose whole output goes to `test-output/logs/<step>.log`, and
 * answers what a reader needs: passed or not, the counts and failures of a vitest step (from its JSON report), the
 * end of the output of another failed step, and how long it took.
 */
export const ROOT = resolve(import.meta.dirname, '../..');
export const LOG_DIR = join(ROOT, 'test-output', 'logs');

export interface StepResult {
  readonly step: Step;
  readonly passed: boolean;
  readonly seconds: number;
  /** `1062 passed, 3 skipped` for a vitest step. */
  readonly counts?: string;
  /** What to print under a failed step. */
  readonly details: string[];
  readonly log: string;
}

const running = new Set<ChildProcess>();

/** Stops every step still running (their whole process groups): Ctrl-C of npm test. */
export function stopAllSteps(): void {
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

const slug = (name: string) => name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();

export async function runStep(step: Step): Promise<StepResult> {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = join(LOG_DIR, `${slug(step.name)}.log`);
  const report = join(LOG_DIR, `${slug(step.name)}.json`);
  rmSync(report, { force: true });
  const [program, ...args] = step.command;
  const reporting = step.vitest
    ? ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`, '--silent=passed-only']
    : [];
  const started = performance.now();
  const output = createWriteStream(log);
  // A program of node_modules/.bin (vitest, tsc, biome, tsx), else one on PATH (`npm run test:…`).
  const local = join(ROOT, 'node_modules', '.bin', program!);
  const child = spawn(existsSync(local) ? local : program!, [...args, ...reporting], {
    cwd: ROOT,
    env: { ...process.env, ...step.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stopping it reaches what it started (emulators, workers).
    detached: true,
  });
  running.add(child);
  child.stdout.pipe(output, { end: false });
  child.stderr.pipe(output, { end: false });
  const code = await new Promise<number | null>((done) => {
    child.once('error', (error) => {
      output.write(`${error.message}\n`);
      done(null);
    });
    child.once('close', (exitCode) => done(exitCode));
  });
  running.delete(child);
  await new Promise<void>((done) => output.end(done));
  const seconds = (performance.now() - started) / 1000;
  const shown = relative(ROOT, log);
  if (step.vitest) return { ...vitestOutcome(report, code, log), step, seconds, log: shown };
  return { step, passed: code === 0, seconds, details: code === 0 ? [] : tail(log, 40), log: shown };
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

function vitestOutcome(reportFile: string, code: number | null, log: string) {
  if (!existsSync(reportFile)) return { passed: false, details: tail(log, 40) };
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as VitestReport;
  const details: string[] = [];
  for (const file of report.testResults) {
    const name = relative(ROOT, file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) {
      details.push(`${name} > ${test.fullName}`, ...indent(firstLines(test.failureMessages.join('\n'), 12)));
    }
    // A file that failed with no failing test: its import, a hook, a setup.
    if (file.status === 'failed' && failed.length === 0) {
      details.push(name, ...indent(firstLines(file.message || 'failed (see the log)', 12)));
    }
  }
  const skipped = report.numPendingTests + report.numTodoTests;
  const counts = [
    report.numFailedTests ? `${report.numFailedTests} failed` : '',
    `${report.numPassedTests} passed`,
    skipped ? `${skipped} skipped` : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (code !== 0 && details.length === 0) details.push(...tail(log, 40));
  return { passed: code === 0, counts, details };
}

const firstLines = (text: string, count: number) => text.split('\n').slice(0, count);
const indent = (lines: string[]) => lines.map((line) => `    ${line}`);

function tail(file: string, count: number): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count);
}
