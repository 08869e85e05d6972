import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../functions/cli/cli-error.ts';
import { loadStackEnvironment } from '../../functions/cli/load-stack-env.ts';
import { assertKnownOptions, parseArgs } from '../../functions/cli/parse-args.ts';

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

describe('loadStackEnvironment', () => {
  it('uses a deployed stage environment as is when TABLE_NAME is set', () => {
    const environment: NodeJS.ProcessEnv = { TABLE_NAME: 'prod-table' };
    loadStackEnvironment(mkdtempSync(join(tmpdir(), 'cli-env-')), environment);
    expect(environment).toEqual({ TABLE_NAME: 'prod-table' });
  });

  it('fills the variables not already set from .local/stack.json', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cli-env-'));
    mkdirSync(join(cwd, '.local'));
    writeFileSync(
      join(cwd, '.local', 'stack.json'),
      JSON.stringify({ env: { TABLE_NAME: 'local-table', LOG_LEVEL: 'info', PASSWORD_PEPPER: 'p' } }),
    );
    const environment: NodeJS.ProcessEnv = { LOG_LEVEL: 'silent' };
    loadStackEnvironment(cwd, environment);
    expect(environment).toEqual({ TABLE_NAME: 'local-table', LOG_LEVEL: 'silent', PASSWORD_PEPPER: 'p' });
  });

  it('asks for npm start when there is neither', () => {
    expect(() => loadStackEnvironment(mkdtempSync(join(tmpdir(), 'cli-env-')), {})).toThrow(
      /Start the local stack with `npm start` first, or set TABLE_NAME/,
    );
  });
});
