/**
 * The local stand-in for the Lambda service, shared by the gateway (routes and the authorizer) and the SQS poller
 * (workers): loads each function's entry once per process (a warm Lambda keeps its module), builds the
 * invocation's `Context` from the function's catalogue entry (name, memory, remaining time), runs the handler
 * within its timeout, and runs every invocation in its own invocation-store context.
 *
 * Why the invocation store: the gateway and the poller run many invocations at once in this one process, as
 * Lambda's multi-concurrency mode does. Powertools (log keys, the Lambda context on log lines, stored metrics)
 * keeps per-invocation state in `globalThis.awslambda.InvokeStore` (an AsyncLocalStorage) whenever
 * `AWS_LAMBDA_MAX_CONCURRENCY` is set; Lambda's runtime creates that store and opens one context per
 * invocation. This module does the same, so one invocation's request id never reaches another's log lines.
 *
 * Accepted differences from the cloud: a timed-out handler is reported but keeps running (a process cannot kill
 * a promise), and every function shares this process's memory and module cache of shared code.
 */
import { randomUUID } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';
import { DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_SECONDS } from '../../shared/catalogue/index.ts';
import type { FunctionSpec } from '../function-specs.ts';
import { entryFilePath } from '../generated-entries.ts';

/** What the runtime needs of a function: the catalogue's id, entry, memory and timeout. */
export type LocalFunction = Pick<FunctionSpec, 'id' | 'entry' | 'memoryMb' | 'timeoutSeconds'>;

export type LambdaHandler<E, R> = (event: E, context: Context) => Promise<R>;

export type Invocation<R> =
  | { readonly outcome: 'ok'; readonly value: R; readonly context: Context }
  | { readonly outcome: 'error'; readonly error: Error; readonly context: Context }
  | { readonly outcome: 'timeout'; readonly context: Context };

export interface InvokeOptions<E, R> {
  /**
   * Stop waiting after this long when it is shorter than the function's own timeout (the gateway's integration
   * limit); the function's context then reports this deadline too, as a shortened invocation would.
   */
  readonly waitMs?: number;
  /** Run this instead of the entry's exported `handler` (tests inject faults this way). */
  readonly handler?: LambdaHandler<E, R>;
}

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
/**
 * Lambda sets AWS_LAMBDA_MAX_CONCURRENCY in multi-concurrency mode; Powertools only needs it to be present.
 * The local gateway has no concurrency cap, so the value only documents "many at once".
 */
const LOCAL_MAX_CONCURRENCY = '64';

let ready: Promise<InvokeStoreBase> | undefined;

/**
 * Makes this process a multi-concurrency Lambda runtime: sets the variables Lambda sets (the concurrency mode,
 * and `on-demand` initialization so `cold_start` is reported) and creates the AsyncLocalStorage-backed store.
 * Must run before the first AWS SDK call in the process, because the SDK creates the store too (single-context
 * when the variable is not yet set); `startLocalStack` calls it first thing. Idempotent.
 */
export function prepareLambdaRuntime(): Promise<InvokeStoreBase> {
  ready ??= (async () => {
    process.env.AWS_LAMBDA_MAX_CONCURRENCY ||= LOCAL_MAX_CONCURRENCY;
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE ||= 'on-demand';
    const store = await InvokeStore.getInstanceAsync(true);
    await assertPerInvocation(store);
    return store;
  })();
  return ready;
}

/** Two overlapping contexts must each see their own value; a single-context store would show the last one. */
async function assertPerInvocation(store: InvokeStoreBase): Promise<void> {
  const probe = Symbol('probe');
  const seen = await Promise.all(
    [1, 2].map((value) =>
      store.run({ [probe]: value }, async () => {
        await new Promise((tick) => setImmediate(tick));
        return store.get(probe);
      }),
    ),
  );
  if (seen[0] !== 1 || seen[1] !== 2) {
    throw new Error(
      'The invocation store is not per invocation: something in this process created it before ' +
        'prepareLambdaRuntime() set AWS_LAMBDA_MAX_CONCURRENCY (call it before any AWS SDK request).',
    );
  }
}

/** Invokes one function once: its own context, its own invocation-store scope, its timeout. */
export async function invokeFunction<E, R>(
  fn: LocalFunction,
  event: E,
  options: InvokeOptions<E, R> = {},
): Promise<Invocation<R>> {
  const store = await prepareLambdaRuntime();
  const timeoutMs = Math.min(
    (fn.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    options.waitMs ?? Number.POSITIVE_INFINITY,
  );
  const context = lambdaContext(fn, Date.now() + timeoutMs);
  let handler: LambdaHandler<E, R>;
  try {
    handler = options.handler ?? (await loadHandler<E, R>(fn.entry));
  } catch (error) {
    return { outcome: 'error', error: asError(error), context };
  }
  // The request id under the key Lambda's runtime uses, so code reading it from the store finds it.
  const scope = { [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId };
  // async: a handler that throws synchronously fails its invocation like any other error.
  const run = store.run(scope, async () => handler(event, context));
  return settle(run, Math.min(options.waitMs ?? timeoutMs, timeoutMs), context);
}

async function settle<R>(run: Promise<R>, waitMs: number, context: Context): Promise<Invocation<R>> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), waitMs);
  });
  try {
    const outcome = await Promise.race([
      run.then(
        (value) => ({ outcome: 'ok' as const, value, context }),
        (error: unknown) => ({ outcome: 'error' as const, error: asError(error), context }),
      ),
      timedOut,
    ]);
    return outcome === 'timeout' ? { outcome: 'timeout', context } : outcome;
  } finally {
    clearTimeout(timer);
  }
}

const modules = new Map<string, Promise<Record<string, unknown>>>();

/** Imports an entry once per process and answers its exported `handler`. */
async function loadHandler<E, R>(entry: string): Promise<LambdaHandler<E, R>> {
  const path = isAbsolute(entry) ? entry : entryFilePath(entry);
  let loaded = modules.get(path);
  if (!loaded) {
    loaded = import(pathToFileURL(path).href) as Promise<Record<string, unknown>>;
    modules.set(path, loaded);
  }
  const handler = (await loaded).handler;
  if (typeof handler !== 'function') throw new Error(`${entry} exports no handler function`);
  return handler as LambdaHandler<E, R>;
}

function lambdaContext(fn: LocalFunction, deadline: number): Context {
  const unsupported = () => {
    throw new Error('Callback-style context methods are not supported; return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: fn.id,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${fn.id}`,
    memoryLimitInMB: String(fn.memoryMb ?? DEFAULT_MEMORY_MB),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${fn.id}`,
    logStreamName: `local/${fn.id}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
