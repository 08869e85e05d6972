import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_HELP } from '../../functions/cli/command-help.ts';

/**
 * `--help` on every command line of the project prints its options and an example on standard output and exits 0,
 * doing nothing else (no stack is needed: nothing starts); a wrong command line says what is wrong, never with a
 * stack trace.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

function run(file: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(TSX, [file, ...args], { cwd: ROOT, env: { PATH: process.env.PATH } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const ADMIN = 'functions/cli/admin.ts';
/** The commands admin.ts dispatches, read from its COMMANDS table. */
const adminCommands = [
  ...readFileSync(join(ROOT, ADMIN), 'utf8').matchAll(/^ {2}'?([a-z:]+)'?: async \(\)/gm),
].map((match) => match[1]!);

const TOOLS: Record<string, [file: string, ...args: string[]]> = {
  'npm test': ['test/runner/run-tests.ts'],
  'npm start': ['infra/local/start.ts'],
  'npm run admin': [ADMIN],
  'npm run fixture:buddypress': ['test/support/buddypress/fixture-cli.ts'],
  'npm run fuzz': ['test/support/fuzz/cli.ts'],
  'npm run bench': ['test/bench/run.ts'],
  'npm run bench -- migration': ['test/bench/run.ts', 'migration'],
  'npm run acceptance:migration': ['test/acceptance/migration.ts'],
  'npm run report:bundles': ['infra/report/bundle-report.ts'],
};

function expectHelp(result: { code: number; stdout: string; stderr: string }): void {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/^usage: /);
  expect(result.stdout).toMatch(/example/i);
}

describe('--help', () => {
  it.each(Object.entries(TOOLS))(
    '%s -- --help prints the usage and an example',
    async (_name, [file, ...args]) => {
      expectHelp(await run(file, ...args, '--help'));
    },
  );

  it('every operator command has its own help, listed in the admin help', async () => {
    expect(adminCommands.length).toBeGreaterThan(5);
    expect(Object.keys(COMMAND_HELP).sort()).toEqual([...adminCommands].sort());
    const overview = await run(ADMIN, '--help');
    for (const command of adminCommands) expect(overview.stdout).toContain(`  ${command}`);
    const each = await Promise.all(adminCommands.map((command) => run(ADMIN, command, '--help')));
    for (const [index, result] of each.entries()) {
      expectHelp(result);
      expect(result.stdout).toContain(adminCommands[index]);
    }
  });
});

describe('a wrong command line', () => {
  it('the fixture without --database refuses, saying why, and changes nothing', async () => {
    const result = await run('test/support/buddypress/fixture-cli.ts', '--groups', '1');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--database is required/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown option is named, with the usage', async () => {
    const result = await run('test/support/fuzz/cli.ts', '--bogus');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--bogus/);
    expect(result.stderr).toMatch(/usage: npm run fuzz/);
  });
});
