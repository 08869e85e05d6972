import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * `npm start` as a process manager or a developer runs it: a subprocess of npm itself, with a data folder and a
 * port of its own, and a clean environment (nothing of the test run's stack leaks in).
 */
const ROOT = resolve(import.meta.dirname, '../..');

export interface NpmStart {
  /** npm's own pid: what a process manager signals. */
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything written so far (stdout and stderr). */
  output(): string;
  /** The API URL once the stack printed `ready`; rejects if npm exits first. */
  readonly ready: Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...extra };
}

export function npmStart(dataDir: string, port: number, extraEnv: Record<string, string> = {}): NpmStart {
  const child = spawn('npm', ['start', '--', '--data-dir', dataDir], {
    cwd: ROOT,
    env: cleanEnvironment({ ...extraEnv, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const ready = new Promise<string>((done, fail) => {
    const check = () => {
      const match = /^ready (\S+)$/m.exec(output);
      if (match) {
        child.stdout.off('data', check);
        done(match[1]!);
      }
    };
    child.stdout.on('data', check);
    void exited.then(({ code, signal }) =>
      fail(new Error(`npm start exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
  ready.catch(() => {}); // a test that expects the exit need not handle it
  return { pid: child.pid!, child, output: () => output, ready, exited };
}

/** The operator CLI against a data folder, as `npm run --silent admin -- --data-dir DIR …`. */
export function adminCli(
  dataDir: string,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('npm', ['run', '--silent', 'admin', '--', '--data-dir', dataDir, ...args], {
      cwd: ROOT,
      env: cleanEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}
