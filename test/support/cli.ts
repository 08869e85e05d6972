import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';

/**
 * The operator CLI as operators and black-box tests use it: a subprocess whose stdout must be exactly one JSON
 * document and whose exit code is the contract. The test process's environment (TABLE_NAME, endpoints, pepper from
 * the global setup) points it at the test emulators instead of `.local/stack.json`.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(...args: string[]): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      TSX,
      ['functions/cli/admin.ts', ...args],
      { cwd: ROOT, env: process.env },
      (error, stdout, stderr) => {
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** A successful run's one JSON document (nothing on stderr, exit 0, exactly one line on stdout). */
export function cliJson(result: CliResult): unknown {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout);
}
