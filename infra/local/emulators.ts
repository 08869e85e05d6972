/**
 * The local stand-ins for AWS services (see ARCHITECTURE.md §3). Each start function returns the endpoint the SDK
 * should use and a `stop()`; nothing here knows about the table, bucket or queues (provision.ts does that).
 * DynamoDB Local, a JVM child process, has its own module (dynamodb-local.ts). Every emulator listens on
 * 127.0.0.1 only.
 *
 * Readiness measured on the 2-core build machine (Node 24, OpenJDK 17), from start call to first good answer:
 *   DynamoDB Local (-inMemory, C1 + SerialGC): ~1.8 s (2.3 s the first time in a process, loading the SDK too)
 *   fauxqs (in-process, SQS + S3):            ~6 ms (first start in a process ~230 ms)
 *   aws-ses-v2-local (in-process express):     ~4 ms (first start ~450 ms: loading its CommonJS tree)
 * Stopping all three takes ~0.35 s (the JVM's exit).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo, Server as NetServer } from 'node:net';
import { join, resolve } from 'node:path';
import { startFauxqs as startFauxqsServer } from 'fauxqs';
import { keepInboxIn } from './ses-inbox-file.ts';

export interface RunningEmulator {
  /** Base URL for the SDK's `endpoint` option, always on 127.0.0.1. */
  readonly endpoint: string;
  /** The child process, for emulators that run in one. */
  readonly pid?: number | undefined;
  /** Resolves, with what happened, if the emulator's process ends without `stop()` (never otherwise). */
  readonly unexpectedExit?: Promise<string>;
  stop(): Promise<void>;
}

/** Emulators accept any credentials but the SDK insists on having some. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const LOCAL_REGION = 'us-east-1';

const LOOPBACK = '127.0.0.1';

/** A port that was free a moment ago on the loopback interface (the OS picks it; there is a small race). */
export function freePort(): Promise<number> {
  return listenBriefly(0) as Promise<number>;
}

/** Whether `port` of the loopback interface can be listened on now. */
export const portIsFree = async (port: number): Promise<boolean> => (await listenBriefly(port)) !== undefined;

/** Listens on `port` (0: any) of the loopback interface and closes again: the port, or undefined if taken. */
function listenBriefly(port: number): Promise<number | undefined> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolvePort(undefined) : reject(error),
    );
    server.listen(port, LOOPBACK, () => {
      const { port: bound } = server.address() as AddressInfo;
      server.close(() => resolvePort(bound));
    });
  });
}

/**
 * The port a data folder's emulator listened on last time, when it is free again, else a free one; remembered in
 * `<folder>/port`. Links people keep (the mail inbox's address) then survive a restart of the stack.
 */
export async function rememberedPort(folder: string): Promise<number> {
  const file = join(folder, 'port');
  const previous = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : Number.NaN;
  const port =
    (Number.isInteger(previous) && previous > 0 && (await listenBriefly(previous))) || (await freePort());
  mkdirSync(folder, { recursive: true });
  writeFileSync(file, `${port}\n`);
  return port;
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
 * here (`forcePathStyle: true` for S3).
 *
 * Loopback only: fauxqs 2.4.1 always calls `listen({ port, host: '0.0.0.0' })` on its Fastify server and offers
 * no option for the host (its `host` option only names queue URLs), and its persistence (`dataDir`) is wired
 * inside `startFauxqs`, so building the app ourselves would mean copying its internals. Instead the start runs
 * with `listen` rewritten to 127.0.0.1 for a wildcard host, and the address it reports is checked, so a
 * future fauxqs that listens some other way fails here instead of silently exposing the emulator.
 */
export async function startFauxqs(options: FauxqsOptions): Promise<RunningEmulator> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const server = await listeningOnLoopback(() =>
    startFauxqsServer({
      port: options.port,
      logger: false,
      defaultRegion: LOCAL_REGION,
      ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}),
    }),
  );
  if (new URL(server.address).hostname !== LOOPBACK) {
    await server.stop();
    throw new Error(`fauxqs listens on ${server.address}, not on ${LOOPBACK} only`);
  }
  return {
    endpoint: `http://${LOOPBACK}:${server.port}`,
    stop: () => server.stop(),
  };
}

const WILDCARD_HOSTS = new Set([undefined, '', '0.0.0.0', '::']);
let loopbackStarts = 0;
const originalListen = NetServer.prototype.listen;

/**
 * Runs `start` while every TCP `listen({ port, host })` of this process on all interfaces is bound to 127.0.0.1
 * instead. No server of the local stack wants all interfaces, so whatever else listens meanwhile loses nothing.
 */
async function listeningOnLoopback<T>(start: () => Promise<T>): Promise<T> {
  if (loopbackStarts++ === 0) {
    NetServer.prototype.listen = function listenOnLoopback(this: NetServer, ...args: unknown[]) {
      const [first] = args;
      if (
        typeof first === 'object' &&
        first !== null &&
        !('path' in first) &&
        WILDCARD_HOSTS.has((first as { host?: string }).host)
      ) {
        args[0] = { ...first, host: LOOPBACK };
      }
      return (originalListen as (...listenArgs: unknown[]) => NetServer).apply(this, args);
    } as typeof originalListen;
  }
  try {
    return await start();
  } finally {
    if (--loopbackStarts === 0) NetServer.prototype.listen = originalListen;
  }
}

export interface SesEmulatorOptions {
  readonly port: number;
  /** Keep the inbox in this folder across restarts (ses-inbox-file.ts); in memory when omitted. */
  readonly dataDir?: string;
}

type SesServerFactory = (config?: { host?: string; port?: number }) => Promise<Server>;

/**
 * aws-ses-v2-local: SES v1 and v2 SendEmail, a web inbox at `/`, the JSON store at `GET /store`,
 * `POST /clear-store`. Its store is module-global: two instances in one process share their mailbox. With a
 * `dataDir` the mailbox survives restarts (ses-inbox-file.ts).
 */
export async function startSesEmulator(options: SesEmulatorOptions): Promise<RunningEmulator> {
  const load = createRequire(import.meta.url)('aws-ses-v2-local') as { default: SesServerFactory };
  // Mails of earlier runs are in the store before the first request can read it.
  const inbox = options.dataDir ? keepInboxIn(options.dataDir) : undefined;
  try {
    // Its listen() promise never rejects (a busy port surfaces as an uncaught 'error'), so at least never hang.
    const server = await withTimeout(
      load.default({ host: LOOPBACK, port: options.port }),
      10_000,
      `SES emulator did not listen on ${LOOPBACK}:${options.port}`,
    );
    const endpoint = `http://${LOOPBACK}:${options.port}`;
    const health = await fetch(`${endpoint}/health-check`);
    if (!health.ok) throw new Error(`SES emulator health check failed: ${health.status}`);
    return {
      endpoint,
      stop: () =>
        new Promise<void>((done, reject) => {
          inbox?.release();
          server.closeAllConnections();
          server.close((error) => (error ? reject(error) : done()));
        }),
    };
  } catch (error) {
    inbox?.release();
    throw error;
  }
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
