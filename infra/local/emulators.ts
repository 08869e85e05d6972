/**
 * The local stand-ins for AWS services (see ARCHITECTURE.md §3). Each start function returns the endpoint the SDK
 * should use and a `stop()`; nothing here knows about the table, bucket or queues (provision.ts does that).
 *
 * Readiness measured on the 2-core build machine (Node 24, OpenJDK 17), from start call to first good answer:
 *   DynamoDB Local (-inMemory, C1 + SerialGC): ~1.8 s (2.3 s the first time in a process, loading the SDK too)
 *   fauxqs (in-process, SQS + S3):            ~6 ms (first start in a process ~230 ms)
 *   aws-ses-v2-local (in-process express):     ~4 ms (first start ~450 ms: loading its CommonJS tree)
 * Stopping all three takes ~0.35 s (the JVM's exit).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { startFauxqs as startFauxqsServer } from 'fauxqs';

export interface RunningEmulator {
  /** Base URL for the SDK's `endpoint` option, always on 127.0.0.1. */
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** Emulators accept any credentials but the SDK insists on having some. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const LOCAL_REGION = 'us-east-1';

const SETPRIV = '/usr/bin/setpriv';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A port that was free a moment ago on the loopback interface (the OS picks it; there is a small race). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

// Children that must not outlive this process even when it exits without calling stop() (a crashed test run).
const children = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const running of children) running.kill('SIGKILL');
  });
}

export interface DynamoDbLocalOptions {
  readonly port: number;
  /** Persist to this directory (`-sharedDb -dbPath`); in memory when omitted. */
  readonly dataDir?: string;
  /** Give up waiting for readiness after this long; default 30 s (a cold JVM on a busy machine). */
  readonly readyTimeoutMs?: number;
}

/** Runs AWS's DynamoDB Local jar (shipped in `amplify-dynamodb-simulator`) as a child process of this one. */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<RunningEmulator> {
  const emulatorDir = join(repoRoot, 'node_modules/amplify-dynamodb-simulator/emulator');
  const storage = options.dataDir ? ['-sharedDb', '-dbPath', resolve(options.dataDir)] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const javaArgs = [
    // C1 only and the serial collector: ready in under 2 s instead of ~4 s, and far less memory.
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    `-Djava.library.path=${join(emulatorDir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(emulatorDir, 'DynamoDBLocal.jar'),
    '-port',
    String(options.port),
    ...storage,
  ];
  // The JVM must die with us even when we are killed by a signal (no 'exit' event then): on Linux, setpriv
  // execs java with a parent-death signal. Elsewhere the 'exit' hook below is the only safety net.
  const [command, args] = existsSync(SETPRIV)
    ? [SETPRIV, ['--pdeathsig', 'KILL', 'java', ...javaArgs]]
    : ['java', javaArgs];
  const child = spawn(command, args, {
    cwd: emulatorDir,
    detached: false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killOnExit(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: { code: number | null; error?: Error } | undefined;
  child.once('exit', (code) => {
    exited = { code };
  });
  child.once('error', (error) => {
    exited = { code: null, error };
  });

  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  try {
    for (;;) {
      if (exited) {
        throw new Error(
          `DynamoDB Local exited before it was ready (code ${exited.code}${exited.error ? `, ${exited.error.message}` : ''}):\n${output}`,
        );
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        break;
      } catch (error) {
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`DynamoDB Local did not answer on ${endpoint}:\n${output}`, { cause: error });
        }
        await sleep(100);
      }
    }
  } finally {
    client.destroy();
  }

  return {
    endpoint,
    stop: () => stopChild(child),
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  // DynamoDB Local normally exits at once on SIGTERM; never let a stuck JVM hang a test run's teardown.
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

export interface FauxqsOptions {
  readonly port: number;
  /**
   * Persist queues, messages, buckets and objects here (fauxqs writes through to SQLite via `node:sqlite`, and
   * restores everything on the next start with the same directory). In memory when omitted.
   */
  readonly dataDir?: string;
}

/**
 * fauxqs serves SQS and S3 (and SNS) in-process on one port. Clients must use the path-style endpoint returned
 * here (`forcePathStyle: true` for S3). Note: fauxqs itself always binds 0.0.0.0 (not configurable in 2.4.1);
 * we only ever talk to it through 127.0.0.1.
 */
export async function startFauxqs(options: FauxqsOptions): Promise<RunningEmulator> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const server = await startFauxqsServer({
    port: options.port,
    logger: false,
    defaultRegion: LOCAL_REGION,
    ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}),
  });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    stop: () => server.stop(),
  };
}

export interface SesEmulatorOptions {
  readonly port: number;
}

type SesServerFactory = (config?: { host?: string; port?: number }) => Promise<Server>;

/**
 * aws-ses-v2-local: SES v1 and v2 SendEmail, a web inbox at `/`, the JSON store at `GET /store`,
 * `POST /clear-store`. Its store is module-global: two instances in one process share their mailbox.
 */
export async function startSesEmulator(options: SesEmulatorOptions): Promise<RunningEmulator> {
  const load = createRequire(import.meta.url)('aws-ses-v2-local') as { default: SesServerFactory };
  // Its listen() promise never rejects (a busy port surfaces as an uncaught 'error'), so at least never hang.
  const server = await withTimeout(
    load.default({ host: '127.0.0.1', port: options.port }),
    10_000,
    `SES emulator did not listen on 127.0.0.1:${options.port}`,
  );
  const endpoint = `http://127.0.0.1:${options.port}`;
  const health = await fetch(`${endpoint}/health-check`);
  if (!health.ok) throw new Error(`SES emulator health check failed: ${health.status}`);
  return {
    endpoint,
    stop: () =>
      new Promise<void>((done, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : done()));
      }),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
