import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFunctionPool } from '../../infra/local/bundled/function-pool.ts';
import type { SynthesizedFunction } from '../../infra/local/bundled/synthesized-functions.ts';

/**
 * The bundled mode's local Lambda service (infra/local/bundled/function-pool.ts) with a one-line function: an
 * invocation goes through the Runtime API and back, and stopping the pool while the environment waits for its next
 * invocation leaves nothing behind that fires later (a CI run once ended with the pool answering a `next` request
 * a second time from an idle timer, after the whole bundled suite had passed; retiring is now idempotent).
 */
function echoFunction(): SynthesizedFunction {
  const codeDir = mkdtempSync(join(tmpdir(), 'pool-fn-'));
  writeFileSync(join(codeDir, 'index.mjs'), 'export const handler = async (event) => ({ echoed: event });\n');
  return {
    name: 'pool-test-echo',
    codeDir,
    handler: 'index.handler',
    memoryMb: 128,
    timeoutSeconds: 10,
    reservedConcurrency: undefined,
    environment: {},
  } as unknown as SynthesizedFunction;
}

describe('the bundled mode function pool', () => {
  it('invokes a function, then stops while the environment waits idle, and its idle timer never fires after', async () => {
    const idleMs = 400;
    const pool = await startFunctionPool({
      logDir: mkdtempSync(join(tmpdir(), 'pool-logs-')),
      idleMs,
      environmentOf: (_fn, runtimeApi) => ({
        PATH: process.env.PATH ?? '',
        AWS_LAMBDA_RUNTIME_API: runtimeApi,
        _HANDLER: 'index.handler',
      }),
    });
    const fn = echoFunction();
    const answer = await pool.invoke<{ echoed: unknown }>(fn, { n: 1 });
    expect(answer).toEqual({ outcome: 'ok', value: { echoed: { n: 1 } } });
    // Let the environment come back for its next invocation, so it waits with its idle timer set.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await pool.stop();
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      await new Promise((resolve) => setTimeout(resolve, idleMs * 2));
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught).toEqual([]);
  });
});
