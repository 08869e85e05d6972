/**
 * AWS's DynamoDB Local (the jar shipped in `amplify-dynamodb-simulator`) as a child process of this one, listening
 * on 127.0.0.1 only, with telemetry off, dying with this process, and reporting an unexpected exit.
 *
 * Loopback only: the jar's own main() binds every interface and has no host option (`-help` of 1.25.1 lists
 * none), so a ten-line launcher (dynamodb-local/LoopbackDynamoDbLocal.java) builds the same server from the same
 * arguments and sets the Jetty connector's host before starting it. It is compiled once per jar and launcher
 * version into node_modules/.cache (about a second, with `javac`); without `javac` (a JRE only) Java runs the
 * source file directly, which costs about 0.8 s on every start instead.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION, type RunningEmulator } from './emulators.ts';

const SETPRIV = '/usr/bin/setpriv';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const emulatorDir = join(repoRoot, 'node_modules/amplify-dynamodb-simulator/emulator');
const jar = join(emulatorDir, 'DynamoDBLocal.jar');
const launcherSource = join(
  dirname(fileURLToPath(import.meta.url)),
  'dynamodb-local',
  'LoopbackDynamoDbLocal.java',
);
const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';

export interface DynamoDbLocalOptions {
  readonly port: number;
  /** Persist to this directory (`-sharedDb -dbPath`); in memory when omitted (`-inMemory -sharedDb`). */
  readonly dataDir?: string;
  /**
   * Give up waiting for readiness after this long; default 60 s. A JVM is ready in 2-3 s on an idle machine, but
   * on a shared 2-core machine running several test suites it has been seen to need more than 30 s.
   */
  readonly readyTimeoutMs?: number;
}

/** The major version of the `java` on PATH (`java -version`), or undefined when there is none. */
export function javaMajorVersion(): number | undefined {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.status !== 0) return undefined;
  const match = /version "(\d+)/.exec(`${result.stderr}${result.stdout}`);
  return match ? Number(match[1]) : undefined;
}

/** DynamoDB Local's jar runs on Java 17 or later. */
export const MIN_JAVA_VERSION = 17;

export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<RunningEmulator> {
  // One database whatever the caller's access key: without -sharedDb, DynamoDB Local keeps one per key and region,
  // and in the bundled mode every function signs with keys of its own (infra/local/bundled/).
  const storage = options.dataDir
    ? ['-sharedDb', '-dbPath', resolve(options.dataDir)]
    : ['-inMemory', '-sharedDb'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const javaArgs = [
    // C1 only and the serial collector: ready in under 2 s instead of ~4 s, and far less memory.
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    // An IPv4 socket, so the listener is plainly 127.0.0.1 (not the IPv4-mapped ::ffff:127.0.0.1).
    '-Djava.net.preferIPv4Stack=true',
    `-Djava.library.path=${join(emulatorDir, 'DynamoDBLocal_lib')}`,
    ...launcherArgs(),
    '-port',
    String(options.port),
    '-disableTelemetry',
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
  let stopping = false;
  let exited: string | undefined;
  const exit = new Promise<string>((done) => {
    child.once('exit', (code, signal) => {
      exited = signal ? `killed by ${signal}` : `exit code ${code}`;
      done(exited);
    });
    child.once('error', (error) => {
      exited = error.message;
      done(exited);
    });
  });

  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  try {
    for (;;) {
      if (exited) throw new Error(`DynamoDB Local exited before it was ready (${exited}):\n${output}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        break;
      } catch (error) {
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`DynamoDB Local did not answer on ${endpoint}:\n${output}`, { cause: error });
        }
        await new Promise((wait) => setTimeout(wait, 100));
      }
    }
  } finally {
    client.destroy();
  }

  return {
    endpoint,
    pid: child.pid,
    // Only an exit nobody asked for; a stop() never resolves it.
    unexpectedExit: exit.then((how) => (stopping ? new Promise<never>(() => {}) : `DynamoDB Local ${how}`)),
    stop: () => {
      stopping = true;
      return stopChild(child);
    },
  };
}

/** `-cp … LoopbackDynamoDbLocal`, compiled once; or the source file when there is no compiler. */
function launcherArgs(): string[] {
  const source = readFileSync(launcherSource);
  const jarStat = statSync(jar);
  const version = createHash('sha256')
    .update(source)
    .update(`${jarStat.size}:${jarStat.mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
  const classes = join(repoRoot, 'node_modules/.cache/community-api/dynamodb-local-launcher', version);
  if (existsSync(join(classes, `${LAUNCHER_CLASS}.class`)))
    return ['-cp', `${jar}${delimiter}${classes}`, LAUNCHER_CLASS];
  // Compile into a private folder, then move it into place: concurrent starts never see half a class file.
  const scratch = `${classes}.${process.pid}.${randomBytes(4).toString('hex')}`;
  mkdirSync(scratch, { recursive: true });
  const compiled = spawnSync('javac', ['-nowarn', '-cp', jar, '-d', scratch, launcherSource], {
    encoding: 'utf8',
  });
  if (compiled.error && (compiled.error as NodeJS.ErrnoException).code === 'ENOENT') {
    rmSync(scratch, { recursive: true, force: true });
    return ['-cp', jar, launcherSource];
  }
  if (compiled.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`Could not compile the DynamoDB Local launcher:\n${compiled.stderr}`);
  }
  try {
    renameSync(scratch, classes);
  } catch {
    // Another start compiled it first; theirs is the same class.
    rmSync(scratch, { recursive: true, force: true });
  }
  return ['-cp', `${jar}${delimiter}${classes}`, LAUNCHER_CLASS];
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
