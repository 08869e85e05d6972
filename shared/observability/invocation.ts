import type { Context } from 'aws-lambda';
import { activeLogger, functionLogger, useLogger } from './logger.ts';

/**
 * What every function does around each invocation: the HTTP handler factory, the SQS worker factory and the
 * authorizer call `beginInvocation` first and `endInvocation` last.
 *
 * Begin: log lines now go to the function's logger (service = the function's id), carry the Lambda context
 * (function_request_id, cold_start, memory, ARN) and the invocation's keys (request id, operation id).
 * End: the end hooks run (metrics.ts publishes the invocation's counts) and its keys are dropped.
 *
 * Invariant: an invocation's keys never reach another invocation's lines. Sequential invocations (the usual
 * Lambda) get that from `endInvocation`; concurrent ones in one process (Lambda multi-concurrency, the local
 * gateway and poller) from Lambda's invocation store (InvokeStore), which the local runtime opens per invocation
 * (infra/local/lambda-runtime.ts), exactly as Lambda's runtime does.
 */
type Fields = Record<string, unknown>;

export function beginInvocation(service: string, context: Context | undefined, keys: Fields = {}): void {
  const log = functionLogger(service);
  useLogger(log);
  if (context) log.addContext(context);
  if (Object.keys(keys).length > 0) log.appendKeys(keys);
}

/**
 * Work at the end of every invocation, registered by the module that needs it when it is loaded: metrics.ts adds
 * the publishing of its counts. A function whose code never counts a metric never loads that module, so its
 * bundle carries no metrics library (issue 21, item 21); one that may count publishes after every invocation.
 */
const endHooks = new Set<(service: string) => void>();

export function onInvocationEnd(hook: (service: string) => void): void {
  endHooks.add(hook);
}

export function endInvocation(service: string): void {
  try {
    for (const hook of endHooks) hook(service);
  } finally {
    activeLogger().resetKeys();
    useLogger(undefined);
  }
}

/** Keys for part of an invocation (one SQS record of a batch); remove them with `removeLogKeys`. */
export function appendLogKeys(keys: Fields): void {
  activeLogger().appendKeys(keys);
}

export function removeLogKeys(names: readonly string[]): void {
  activeLogger().removeKeys([...names]);
}

/** `beginInvocation`, `run`, then `endInvocation` whatever happens. */
export async function observeInvocation<R>(
  service: string,
  context: Context | undefined,
  keys: Fields,
  run: () => Promise<R>,
): Promise<R> {
  beginInvocation(service, context, keys);
  try {
    return await run();
  } finally {
    endInvocation(service);
  }
}
