import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { SynthesizedFunction } from './synthesized-functions.ts';

/**
 * The local Lambda service of the bundled mode: per function, execution environments that are Node processes
 * running its synthesized asset through runtime-bootstrap.ts, fed by a Runtime API (the `next` / `response` /
 * `error` protocol) that this module serves on one loopback port. An environment takes one invocation at a time
 * and stays warm for the next; a busy function gets another environment, up to its reserved concurrency, beyond
 * which it is throttled as Lambda throttles; an invocation past the function's timeout kills its environment.
 * Without a reservation a function has at most `maxEnvironments` processes here (further calls wait): this machine
 * is not Lambda's fleet.
 */
export type BundledInvocation<R> =
  | { readonly outcome: 'ok'; readonly value: R }
  | { readonly outcome: 'error'; readonly error: Error }
  | { readonly outcome: 'timeout' }
  | { readonly outcome: 'throttled' };

export interface FunctionPoolOptions {
  /** The variables of one environment's process (the function's own, Lambda's, its credentials). */
  readonly environmentOf: (fn: SynthesizedFunction, runtimeApi: string) => Record<string, string>;
  /** Functions' stdout and stderr go to `<logDir>/<function name>.log` (CloudWatch's stand-in). */
  readonly logDir: string;
  readonly maxEnvironments?: number;
  /** An environment idle this long is shut down (Lambda reclaims idle ones too). */
  readonly idleMs?: number;
}

interface Pending {
  readonly requestId: string;
  readonly event: unknown;
  readonly deadline: number;
  settle(result: BundledInvocation<unknown>): void;
}

interface Environment {
  readonly id: string;
  readonly fn: SynthesizedFunction;
  readonly child: ChildProcess;
  waiting?: ServerResponse;
  current?: Pending;
  idleTimer?: NodeJS.Timeout;
}

const BOOTSTRAP = join(import.meta.dirname, 'runtime-bootstrap.ts');

export async function startFunctionPool(options: FunctionPoolOptions) {
  const maxEnvironments = options.maxEnvironments ?? 4;
  const idleMs = options.idleMs ?? 120_000;
  const environments = new Map<string, Environment>();
  const queues = new Map<string, Pending[]>();
  let stopped = false;
  mkdirSync(options.logDir, { recursive: true });

  const server = createServer((request, response) => {
    const [, id, , , kind, requestId, verb] = (request.url ?? '').split('/');
    const env = environments.get(id ?? '');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (!env) return void response.writeHead(410).end();
      const body = Buffer.concat(chunks).toString('utf8');
      if (kind === 'invocation' && requestId === 'next') return waitForWork(env, response);
      response.writeHead(202).end();
      if (kind === 'init') return fail(env, new Error(`init failed: ${body}`));
      const current = env.current;
      if (!current || current.requestId !== requestId) return;
      env.current = undefined;
      if (verb === 'response') current.settle({ outcome: 'ok', value: body ? JSON.parse(body) : null });
      else current.settle({ outcome: 'error', error: lambdaError(body) });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const apiHost = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  function waitForWork(env: Environment, response: ServerResponse) {
    env.waiting = response;
    clearTimeout(env.idleTimer);
    const next = queues.get(env.fn.name)?.shift();
    if (next) return dispatch(env, next);
    env.idleTimer = setTimeout(() => retire(env), idleMs);
  }

  function dispatch(env: Environment, pending: Pending) {
    const response = env.waiting;
    if (!response) throw new Error('dispatch to a busy environment');
    clearTimeout(env.idleTimer);
    env.waiting = undefined;
    env.current = pending;
    response.writeHead(200, {
      'content-type': 'application/json',
      'lambda-runtime-aws-request-id': pending.requestId,
      'lambda-runtime-deadline-ms': String(pending.deadline),
      'lambda-runtime-invoked-function-arn': `arn:aws:lambda:us-east-1:000000000000:function:${env.fn.name}`,
      'lambda-runtime-trace-id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    });
    response.end(JSON.stringify(pending.event));
  }

  function spawnEnvironment(fn: SynthesizedFunction): Environment {
    const id = `env-${randomUUID()}`;
    const log = openSync(join(options.logDir, `${fn.name}.log`), 'a');
    const heap = Math.max(64, Math.floor(fn.memoryMb * 0.85));
    const child = spawn(process.execPath, [`--max-old-space-size=${heap}`, BOOTSTRAP], {
      cwd: fn.codeDir,
      env: options.environmentOf(fn, `${apiHost}/${id}`),
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const env: Environment = { id, fn, child };
    environments.set(id, env);
    child.on('exit', (code, signal) => {
      environments.delete(id);
      clearTimeout(env.idleTimer);
      env.current?.settle({
        outcome: 'error',
        error: new Error(`Runtime exited (${signal ?? `status ${code}`}) in ${fn.name}`),
      });
      env.current = undefined;
    });
    return env;
  }

  /**
   * Ends an environment once: its idle timer goes with it, and its waiting `next` request is answered 410 only if
   * nothing answered it yet (stop() and a timeout may retire an environment whose idle timer was still set).
   */
  function retire(env: Environment) {
    clearTimeout(env.idleTimer);
    environments.delete(env.id);
    const waiting = env.waiting;
    env.waiting = undefined;
    if (waiting && !waiting.headersSent) waiting.writeHead(410).end();
    env.child.kill('SIGKILL');
  }

  function fail(env: Environment, error: Error) {
    const queued = queues.get(env.fn.name) ?? [];
    const first = env.current ?? queued.shift();
    first?.settle({ outcome: 'error', error });
    env.current = undefined;
    retire(env);
  }

  return {
    async invoke<R>(fn: SynthesizedFunction, event: unknown): Promise<BundledInvocation<R>> {
      if (stopped) return { outcome: 'error', error: new Error('the local Lambda service stopped') };
      const mine = [...environments.values()].filter((env) => env.fn.name === fn.name);
      const idle = mine.find((env) => env.waiting && !env.current);
      const limit = fn.reservedConcurrency ?? maxEnvironments;
      const busy = mine.filter((env) => env.current).length + (queues.get(fn.name)?.length ?? 0);
      if (!idle && fn.reservedConcurrency !== undefined && busy >= fn.reservedConcurrency) {
        return { outcome: 'throttled' };
      }
      return new Promise<BundledInvocation<R>>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const pending: Pending = {
          requestId: randomUUID(),
          event,
          deadline: Date.now() + fn.timeoutSeconds * 1000,
          settle(result) {
            clearTimeout(timer);
            resolve(result as BundledInvocation<R>);
          },
        };
        timer = setTimeout(() => {
          const queue = queues.get(fn.name) ?? [];
          const index = queue.indexOf(pending);
          if (index >= 0) queue.splice(index, 1);
          const running = [...environments.values()].find((env) => env.current === pending);
          // Past its timeout a function is stopped, whatever it was doing: its environment goes with it.
          if (running) {
            running.current = undefined;
            retire(running);
          }
          pending.settle({ outcome: 'timeout' });
        }, fn.timeoutSeconds * 1000);
        if (idle) return dispatch(idle, pending);
        queues.set(fn.name, [...(queues.get(fn.name) ?? []), pending]);
        if (
          mine.filter((env) => !env.current).length < (queues.get(fn.name)?.length ?? 0) &&
          mine.length < limit
        ) {
          spawnEnvironment(fn);
        }
      });
    },
    /** Processes running now, by function name (tests and the report). */
    environmentCount(name?: string): number {
      return [...environments.values()].filter((env) => name === undefined || env.fn.name === name).length;
    },
    async stop(): Promise<void> {
      stopped = true;
      for (const env of environments.values()) retire(env);
      for (const queue of queues.values())
        for (const pending of queue) pending.settle({ outcome: 'timeout' });
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

export type FunctionPool = Awaited<ReturnType<typeof startFunctionPool>>;

function lambdaError(body: string): Error {
  try {
    const parsed = JSON.parse(body) as { errorType?: string; errorMessage?: string; stackTrace?: string[] };
    const error = new Error(parsed.errorMessage ?? 'function error');
    error.name = parsed.errorType ?? 'Error';
    if (parsed.stackTrace?.length) error.stack = parsed.stackTrace.join('\n');
    return error;
  } catch {
    return new Error(body);
  }
}
