import { InvokeStore } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { invokeFunction } from '../../infra/local/lambda-runtime.ts';
import { evaluations } from '../support/handlers/counted-module.ts';

/** The local Lambda runtime the gateway and the poller share: context, scope, timeout, module cache. */
const fn = {
  id: 'probeFunction',
  entry: 'test/support/handlers/counted-module.ts',
  memoryMb: 1024,
  timeoutSeconds: 2,
};

describe('local Lambda runtime', () => {
  it('builds the context from the catalogue entry: name, ARN, memory, remaining time', async () => {
    const invocation = await invokeFunction<unknown, Context>(
      fn,
      {},
      { handler: async (_, context) => context },
    );
    expect(invocation.outcome).toBe('ok');
    const context = invocation.outcome === 'ok' ? invocation.value : undefined;
    expect(context).toMatchObject({
      functionName: 'probeFunction',
      invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:probeFunction',
      memoryLimitInMB: '1024',
    });
    expect(context?.getRemainingTimeInMillis()).toBeGreaterThan(1000);
    expect(context?.getRemainingTimeInMillis()).toBeLessThanOrEqual(2000);
  });

  it('runs every invocation in its own invocation-store scope, also when they overlap', async () => {
    const store = await InvokeStore.getInstanceAsync();
    const seen = await Promise.all(
      Array.from({ length: 5 }, () =>
        invokeFunction<unknown, { fromStore: string; fromContext: string }>(
          fn,
          {},
          {
            handler: async (_, context) => {
              await new Promise((wait) => setTimeout(wait, 20));
              return { fromStore: store.getRequestId(), fromContext: context.awsRequestId };
            },
          },
        ),
      ),
    );
    const ids = seen.map((invocation) => (invocation.outcome === 'ok' ? invocation.value : undefined));
    for (const id of ids) expect(id?.fromStore).toBe(id?.fromContext);
    expect(new Set(ids.map((id) => id?.fromStore)).size).toBe(5);
    expect(store.getRequestId()).toBe('-'); // outside any invocation
  });

  it('loads an entry once per process and calls its handler', async () => {
    const first = await invokeFunction<unknown, string>(fn, {});
    const second = await invokeFunction<unknown, string>(fn, {});
    expect(first.outcome === 'ok' && first.value).toBe(first.context.awsRequestId);
    expect(second.outcome === 'ok' && second.value).toBe(second.context.awsRequestId);
    expect(evaluations()).toBe(1);
  });

  it('reports errors, including synchronous throws, and timeouts', async () => {
    const failed = await invokeFunction(fn, {}, { handler: () => Promise.reject(new Error('boom')) });
    expect(failed.outcome === 'error' && failed.error.message).toBe('boom');
    const thrown = await invokeFunction(
      fn,
      {},
      {
        handler: () => {
          throw new Error('sync');
        },
      },
    );
    expect(thrown.outcome === 'error' && thrown.error.message).toBe('sync');
    const slow = await invokeFunction(
      fn,
      {},
      {
        waitMs: 50,
        handler: () => new Promise((done) => setTimeout(done, 500)),
      },
    );
    expect(slow.outcome).toBe('timeout');
  });
});
