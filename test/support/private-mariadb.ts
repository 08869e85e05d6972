import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from '../../infra/local/emulators.ts';

/**
 * A MariaDB server of the test run's own, the BuddyPress source of the migration tests: a fresh data folder in the
 * temp directory, 127.0.0.1 and a free port only, `root` with no password inside that folder, gone when the run
 * stops. The machine's own MariaDB server (if any) and its accounts are never touched, and no server needs to be
 * running beforehand: only the `mariadbd` and `mariadb-install-db` programs (Debian's `mariadb-server-core` and
 * `mariadb-client-core`, which `npm test` installs when missing).
 *
 * `TEST_MYSQL_URL=mysql://user:password@host:port` uses that server instead (each test database is created and
 * dropped by the tests themselves). Readiness here: install ~2 s, start ~0.3 s on the 2-core machine.
 */
export interface TestMariaDb {
  /** `mysql://root@127.0.0.1:<port>`, without a database. */
  readonly url: string;
  stop(): Promise<void>;
}

const SETPRIV = '/usr/bin/setpriv';
export const MARIADBD =
  ['/usr/sbin/mariadbd', '/usr/bin/mariadbd'].find((path) => existsSync(path)) ?? 'mariadbd';

/**
 * Starts the server; `url` is known at once (callers may hand it on while the server starts), `ready` resolves
 * when it answers.
 */
export async function startTestMariaDb(options: { bufferPoolMb?: number } = {}): Promise<TestMariaDb> {
  const starting = await beginTestMariaDb(options);
  await starting.ready;
  return starting;
}

export async function beginTestMariaDb(
  options: { bufferPoolMb?: number } = {},
): Promise<TestMariaDb & { ready: Promise<void> }> {
  const given = process.env.TEST_MYSQL_URL;
  if (given) return { url: given.replace(/\/+$/, ''), stop: async () => {}, ready: Promise.resolve() };

  const folder = mkdtempSync(join(tmpdir(), 'community-test-mariadb-'));
  const data = join(folder, 'data');
  // Small and quick to create: the tests' databases hold a few thousand rows (benchmarks ask for more memory).
  const serverOptions = [
    '--innodb-log-file-size=8M',
    `--innodb-buffer-pool-size=${options.bufferPoolMb ?? 64}M`,
    '--skip-name-resolve',
  ];
  // mariadbd refuses to run as root unless told to; as anyone else it runs as that user.
  const asUser = process.getuid?.() === 0 ? ['--user=root'] : [];
  const port = await freePort();
  const url = `mysql://root@127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const ready = (async () => {
    const installed = await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...asUser,
      ...serverOptions,
    ]);
    if (installed.code !== 0) {
      throw new Error(
        `Could not create the tests' MariaDB data folder (mariadb-install-db): ${installed.output}`,
      );
    }
    const args = [
      '--no-defaults',
      `--datadir=${data}`,
      '--bind-address=127.0.0.1',
      `--port=${port}`,
      `--socket=${join(folder, 'mariadb.sock')}`,
      `--pid-file=${join(folder, 'mariadb.pid')}`,
      `--log-error=${join(folder, 'error.log')}`,
      ...asUser,
      ...serverOptions,
    ];
    // Dies with this process whatever kills it (parent-death signal), as DynamoDB Local does.
    const [command, commandArgs] = existsSync(SETPRIV)
      ? [SETPRIV, ['--pdeathsig', 'KILL', MARIADBD, ...args]]
      : [MARIADBD, args];
    child = spawn(command, commandArgs, { stdio: 'ignore' });
    await waitUntilReady(url, child, folder);
  })();
  const stop = async () => {
    await ready.catch(() => undefined);
    if (child) await stopChild(child);
    rmSync(folder, { recursive: true, force: true });
  };
  ready.catch(() => stop());
  return { url, stop, ready };
}

/** Runs a program to its end without blocking this process (the stack starts meanwhile). */
function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-2000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (error) => done({ code: null, output: error.message }));
    child.once('exit', (code) => done({ code, output: output.trim() }));
  });
}

async function waitUntilReady(url: string, child: ChildProcess, folder: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The tests' MariaDB server exited at start:\n${errorLog(folder)}`);
    }
    try {
      const connection = await mysql.createConnection({ uri: url });
      await connection.end();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`The tests' MariaDB server did not answer on ${url}:\n${errorLog(folder)}`, {
          cause: error,
        });
      }
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
}

const errorLog = (folder: string) => {
  const file = join(folder, 'error.log');
  return existsSync(file) ? readFileSync(file, 'utf8').slice(-2000) : '(no error log)';
};

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
