import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiUrl, createTestUser, type TestUser } from '../support/api.ts';

/**
 * A client that reads naturally: a typed client generated from the served document (openapi-typescript +
 * openapi-fetch) compiles a short script of typical calls (test/support/typed-client/calls.ts.txt) with
 * `tsc --strict`, then runs it against the local stack. The script reads `error.code` without narrowing, narrows
 * the upload's two 201 answers on `data.status`, and passes integer query values as numbers.
 */
const ROOT = resolve(import.meta.dirname, '../..');
// Inside the repository (git-ignored), so the script resolves openapi-fetch from its node_modules.
const directory = join(ROOT, '.tmp', `typed-client-${process.pid}`);
let user: TestUser;

beforeAll(async () => {
  user = await createTestUser();
  const served = await api<OpenAPI3>('GET', '/openapi.json');
  expect(served.status).toBe(200);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'schema.ts'), astToString(await openapiTS(served.body)));
  copyFileSync(join(ROOT, 'test/support/typed-client/calls.ts.txt'), join(directory, 'calls.ts'));
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('typed client (openapi-typescript + openapi-fetch)', () => {
  it('compiles the script of typical calls with tsc --strict', () => {
    const program = ts.createProgram([join(directory, 'calls.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: ['node'],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 60_000);

  it('runs it against the local stack: every call answers as the contract says', () => {
    const run = spawnSync(process.execPath, [join(directory, 'calls.ts')], {
      env: { PATH: process.env.PATH ?? '', API_URL: apiUrl(), AUTHORIZATION: user.authorization },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { call: string; result: unknown });
    expect(Object.fromEntries(lines.map((line) => [line.call, line.result]))).toEqual({
      listNotifications: 2,
      anonymous: 'rest_not_logged_in',
      listFeeds: 'not_found',
      getMedia: 'media_not_found',
      uploadMedia: expect.stringMatching(/^pending\/\d+$/),
    });
  }, 60_000);
});
