import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DATA_DIR_OPTION,
  DATA_DIR_VARIABLE,
  emulatorDataPath,
  localDataDir,
  secretsFilePath,
  stackFilePath,
  type StackFile,
} from '../../shared/config/local-stack-files.ts';
import { recoverAbandonedImports } from '../../shared/domain/import/recover-imports.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { findUserIdByUsername } from '../../shared/domain/users/user-lookups.ts';
import { ensureLocalAssembly } from './bundled/local-assembly.ts';
import { startSchedules } from './schedules.ts';
import { DataDirInUse, type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import { javaMajorVersion, MIN_JAVA_VERSION } from './dynamodb-local.ts';
import { portIsFree } from './emulators.ts';
import { generatePepper, type LocalStack, startLocalStack } from './stack.ts';

/**
 * `npm start`: the whole API on this machine, no AWS account. Data lives in a data folder (`.local/` by default,
 * git-ignored; `--data-dir DIR` or LOCAL_DATA_DIR for another) and survives restarts; `--fresh` empties it
 * first. `<folder>/stack.json` tells the operator CLI where the running stack is.
 *
 * Lifecycle (the stack is this process and its DynamoDB Local child; fauxqs, the SES emulator, the gateway and
 * the poller run in this process):
 * - One stack per data folder: a second start on the same folder exits 1 with a message (data-dir-lock.ts).
 * - SIGINT, SIGTERM or SIGHUP stops everything and exits 0. npm forwards SIGTERM to its child, and the `start`
 *   script `exec`s this process (no shell in between to swallow it), so `kill <npm's pid>` reaches it.
 * - If the parent (npm) goes away without forwarding anything (SIGKILL), this process notices within a second
 *   and stops too. The JVM dies with this process whatever kills it (parent-death signal).
 * - If DynamoDB Local dies, every request would fail: this process says so, stops everything and exits 1.
 */
const ADMIN_LOGIN = 'admin';
const FORCED_EXIT_MS = 10_000;
const PARENT_CHECK_MS = 500;

const USAGE = `usage: npm start [-- [--fresh] [--bundled] [--${DATA_DIR_OPTION} DIR]]
  --${DATA_DIR_OPTION} DIR  the data folder (default .local; or ${DATA_DIR_VARIABLE}); one stack per folder
  --fresh         empty the data folder first
  --bundled       run what deploys: each function from its synthesized asset, in its own processes, under its
                  synthesized IAM policy (synthesizes the dev stage first when the sources changed)
environment:
  PORT                      gateway port on 127.0.0.1 (default 3000)
  LOG_LEVEL                 handlers' log level: debug, info, warn (default), error, silent
  BUDDYPRESS_URL            the BuddyPress source of migrations, mysql://user:password@host:port/database
  BUDDYPRESS_TABLE_PREFIX   its table prefix (default wp_)
  BUDDYPRESS_UPLOADS_URL    its uploads folder (a path, file:// or s3://), for avatars and covers
  APP_LINK_TEMPLATE         where e-mail links go, with {path} (default: pages of this stack)
  INVITATION_LINK_TEMPLATE  the invitation e-mail's link, with {token} (default: the API's accept route)
  OEMBED_PROVIDERS_EXTRA, OEMBED_ALLOW_HOSTS   local oEmbed experiments (README)
example:
  PORT=3001 npm start -- --${DATA_DIR_OPTION} .local-2
`;

interface StartOptions {
  readonly fresh: boolean;
  readonly bundled: boolean;
  readonly dataDir: string;
  readonly port: number;
}

function parseStartArguments(argv: readonly string[]): StartOptions | 'help' {
  let fresh = false;
  let bundled = false;
  let explicitDir: string | undefined;
  const args = argv.values();
  for (const arg of args) {
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--fresh') fresh = true;
    else if (arg === '--bundled') bundled = true;
    else if (arg === `--${DATA_DIR_OPTION}`) {
      explicitDir = args.next().value;
      if (!explicitDir) throw new UsageError(`--${DATA_DIR_OPTION} needs a folder`);
    } else if (arg.startsWith(`--${DATA_DIR_OPTION}=`)) explicitDir = arg.slice(DATA_DIR_OPTION.length + 3);
    else throw new UsageError(`unknown argument ${arg}`);
  }
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`PORT must be a port number, not ${process.env.PORT}`);
  return { fresh, bundled, dataDir: localDataDir(explicitDir), port };
}

class UsageError extends Error {}
/** A check before anything started failed: one line says what and how to fix it. */
class StartRefused extends Error {}

const portInUse = (port: number) =>
  `port ${port} is in use on 127.0.0.1; set PORT to another one (PORT=${port + 1} npm start)`;

async function main(): Promise<void> {
  const options = parseStartArguments(process.argv.slice(2));
  if (options === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  // Before anything starts: a taken port or a missing Java would otherwise show only after every emulator started.
  if (!(await portIsFree(options.port))) throw new StartRefused(portInUse(options.port));
  const java = javaMajorVersion();
  if ((java ?? 0) < MIN_JAVA_VERSION) {
    throw new StartRefused(
      `DynamoDB Local needs Java ${MIN_JAVA_VERSION}+ (${java === undefined ? 'no java on PATH' : `java ${java} found`}); ` +
        'install it: apt-get install openjdk-17-jre-headless',
    );
  }
  mkdirSync(options.dataDir, { recursive: true });
  const lock = lockDataDir(options.dataDir);
  process.once('exit', () => lock.release());
  if (options.fresh) emptyExceptLock(options.dataDir, lock);

  const stopping = watchForStop(lock, options.dataDir);
  const assemblyDir = options.bundled
    ? await ensureLocalAssembly(undefined, (line) => process.stdout.write(`${line}\n`))
    : undefined;
  const logDir = join(options.dataDir, 'logs');
  const stack = await startLocalStack({
    ...(assemblyDir ? { bundled: { assemblyDir, logDir } } : {}),
    port: options.port,
    dataDir: emulatorDataPath(options.dataDir),
    names: { table: 'community', bucket: 'community-media', queuePrefix: 'community' },
    pepper: localPepper(options.dataDir),
  });
  stopping.attach(stack);
  stack.failure.then((what) => stopping.stop(`${what}; every request would fail`, 1));

  const stackFile: StackFile = {
    apiUrl: stack.apiUrl,
    sesUrl: stack.sesUrl,
    pid: process.pid,
    env: stack.environment,
  };
  writeFileSync(stackFilePath(options.dataDir), `${JSON.stringify(stackFile, null, 2)}\n`, { mode: 0o600 });

  if ((await findUserIdByUsername(ADMIN_LOGIN)) === undefined) {
    const admin = await createUser({
      login: ADMIN_LOGIN,
      email: 'admin@example.com',
      displayName: 'Administrator',
      hostRole: 'administrator',
      communityRole: 'admin',
    });
    process.stdout.write(
      `administrator created (shown once): user ${admin.username}  application password ${admin.app_password}\n`,
    );
  }

  // Imports a crash interrupted are rolled back before the stack says it is ready (recover-imports.ts).
  for (const line of await recoverAbandonedImports()) process.stdout.write(`${line}\n`);
  // Digest e-mails and other recurring jobs, as EventBridge rules run them in the cloud.
  startSchedules();

  if (stack.bundled) {
    process.stdout.write(
      `bundled: ${stack.bundled.functions.length} functions from ${assemblyDir}, IAM enforced; logs in ${logDir}\n`,
    );
  }
  process.stdout.write(`ready ${stack.apiUrl}\n`);
  process.stdout.write(`live ${stack.liveUrl}\n`);
  process.stdout.write(`mail inbox ${stack.sesUrl}/\n`);
  process.stdout.write(`openapi ${stack.apiUrl}/openapi.json\n`);
  process.stdout.write(`data ${options.dataDir}\n`);
}

/** The pepper of this folder's store: made on the first start, kept beside the data it protects. */
function localPepper(dataDir: string): string {
  const file = secretsFilePath(dataDir);
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { passwordPepper?: string };
    if (stored.passwordPepper) return stored.passwordPepper;
  }
  const pepper = generatePepper();
  writeFileSync(file, `${JSON.stringify({ passwordPepper: pepper })}\n`, { mode: 0o600 });
  return pepper;
}

/** `--fresh`, under the lock: a running stack's folder is never wiped. */
function emptyExceptLock(dataDir: string, lock: DataDirLock): void {
  for (const entry of readdirSync(dataDir)) {
    const path = join(dataDir, entry);
    if (path !== lock.path) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Stops on a signal, when the parent goes away, or on request; installed before the stack starts so a signal
 * during the start also stops what has started so far.
 */
function watchForStop(lock: DataDirLock, dataDir: string) {
  let stack: LocalStack | undefined;
  let stopping = false;
  const stop = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    write(code === 0 ? process.stdout : process.stderr, `stopping (${reason})\n`);
    rmSync(stackFilePath(dataDir), { force: true });
    setTimeout(() => process.exit(code === 0 ? 1 : code), FORCED_EXIT_MS).unref();
    (stack?.stop() ?? Promise.resolve()).finally(() => {
      lock.release();
      process.exit(code);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal, 0));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop(`parent process ${parent} exited`, 0);
  }, PARENT_CHECK_MS).unref();
  return {
    attach(started: LocalStack) {
      stack = started;
      // A signal that arrived while starting: stop what has started now.
      if (stopping) void started.stop();
    },
    stop,
  };
}

/** A closed stdout (the parent is gone) must not turn a clean stop into a crash. */
function write(stream: NodeJS.WriteStream, text: string): void {
  try {
    stream.write(text);
  } catch {
    // nothing to tell anyone
  }
}
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

main().catch((error: unknown) => {
  if (error instanceof DataDirInUse) {
    process.stderr.write(
      `npm start: ${error.message}\n` +
        `Stop that stack first (kill ${error.pid}), or start this one on its own folder and port:\n` +
        `  PORT=3001 npm start -- --${DATA_DIR_OPTION} .local-2\n`,
    );
  } else if (error instanceof UsageError) {
    process.stderr.write(`npm start: ${error.message}\n${USAGE}`);
  } else if (error instanceof StartRefused) {
    process.stderr.write(`npm start: ${error.message}\n`);
  } else if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
    process.stderr.write(`npm start: ${portInUse(Number(process.env.PORT ?? 3000))}\n`);
  } else {
    process.stderr.write(
      `npm start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
