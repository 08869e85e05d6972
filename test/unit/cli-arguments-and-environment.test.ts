import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../functions/cli/cli-error.ts';
import { loadStackEnvironment } from '../../functions/cli/load-stack-env.ts';
import { assertKnownOptions, parseArgs, takeOption } from '../../functions/cli/parse-args.ts';

describe('parseArgs', () => {
  it('reads options with separate or inline values and keeps positionals', () => {
    const args = parseArgs(['--login', 'ann', '--name=Ann Lee', 'file.json']);
    expect(Object.fromEntries(args.options)).toEqual({ login: 'ann', name: 'Ann Lee' });
    expect(args.positionals).toEqual(['file.json']);
  });

  it('refuses a missing value, a repeated option and an unknown option', () => {
    expect(() => parseArgs(['--login'])).toThrow(CliError);
    expect(() => parseArgs(['--login', 'a', '--login', 'b'])).toThrow(/twice/);
    expect(() => assertKnownOptions(parseArgs(['--logn', 'a']), ['login'])).toThrow(/--logn/);
  });
});

describe('takeOption', () => {
  it('takes the option from before or after the command and leaves the rest in order', () => {
    expect(takeOption(['--data-dir', 'a', 'user:create', '--login', 'x'], 'data-dir')).toEqual({
      value: 'a',
      rest: ['user:create', '--login', 'x'],
    });
    expect(takeOption(['import', 'f.json', '--data-dir=b'], 'data-dir')).toEqual({
      value: 'b',
      rest: ['import', 'f.json'],
    });
    expect(takeOption(['token:create'], 'data-dir')).toEqual({ value: undefined, rest: ['token:create'] });
  });

  it('refuses a missing value or the option twice', () => {
    expect(() => takeOption(['user:create', '--data-dir'], 'data-dir')).toThrow(/needs a value/);
    expect(() => takeOption(['--data-dir', 'a', '--data-dir=b'], 'data-dir')).toThrow(/twice/);
  });
});

describe('loadStackEnvironment', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'cli-env-'));
  const writeStack = (dir: string, pid: number) =>
    writeFileSync(
      join(dir, 'stack.json'),
      JSON.stringify({ pid, env: { TABLE_NAME: 'local-table', LOG_LEVEL: 'info', PASSWORD_PEPPER: 'p' } }),
    );

  it('uses a deployed stage environment as is when TABLE_NAME is set', () => {
    const environment: NodeJS.ProcessEnv = { TABLE_NAME: 'prod-table' };
    loadStackEnvironment(dataDir(), environment);
    expect(environment).toEqual({ TABLE_NAME: 'prod-table' });
  });

  it("fills the variables not already set from the data folder's stack.json", () => {
    const dir = dataDir();
    writeStack(dir, process.pid);
    const environment: NodeJS.ProcessEnv = { LOG_LEVEL: 'silent' };
    loadStackEnvironment(dir, environment);
    expect(environment).toEqual({ TABLE_NAME: 'local-table', LOG_LEVEL: 'silent', PASSWORD_PEPPER: 'p' });
  });

  it('finds the folder through LOCAL_DATA_DIR, relative to where the command was run', () => {
    const parent = dataDir();
    mkdirSync(join(parent, 'stack-2'));
    writeStack(join(parent, 'stack-2'), process.pid);
    const environment: NodeJS.ProcessEnv = { LOCAL_DATA_DIR: 'stack-2', INIT_CWD: parent };
    loadStackEnvironment(undefined, environment);
    expect(environment.TABLE_NAME).toBe('local-table');
  });

  it('asks for npm start when there is no stack, naming the folder', () => {
    const dir = dataDir();
    expect(() => loadStackEnvironment(dir, {})).toThrow(
      `No local stack is running on ${dir}. Start it with \`npm start -- --data-dir ${dir}\``,
    );
  });

  it('refuses a stack file left by a stack that is no longer running', () => {
    const dir = dataDir();
    writeStack(dir, spawnSync('true').pid);
    expect(() => loadStackEnvironment(dir, {})).toThrow(/is not running/);
  });
});
