import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUse, lockDataDir } from '../../infra/local/data-dir-lock.ts';

/** One local stack per data folder: the lock file, its stale takeover and its release. */
const folder = () => mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
const lockFile = (dir: string) => join(dir, 'stack.lock');
let other: ChildProcess | undefined;

afterEach(() => {
  other?.kill('SIGKILL');
  other = undefined;
});

/** A live process that is not this one, standing in for another stack. */
function otherProcess(): number {
  other = spawn('sleep', ['30'], { stdio: 'ignore' });
  return other.pid!;
}

describe('data folder lock', () => {
  it('records this process and is released on request, leaving nothing behind', () => {
    const dir = folder();
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(dir), 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
    lock.release();
  });

  it('refuses a folder whose lock holder is alive, naming it', () => {
    const dir = folder();
    const pid = otherProcess();
    const startTime = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
    writeFileSync(lockFile(dir), JSON.stringify({ pid, startTime }));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse);
    expect(() => lockDataDir(dir)).toThrow(`in use by another local stack (pid ${pid})`);
    expect(JSON.parse(readFileSync(lockFile(dir), 'utf8')).pid).toBe(pid);
  });

  it('takes over a lock whose process is gone', () => {
    const dir = folder();
    writeFileSync(lockFile(dir), JSON.stringify({ pid: spawnSync('true').pid }));
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(dir), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process (a reboot, pid reuse)', () => {
    const dir = folder();
    writeFileSync(lockFile(dir), JSON.stringify({ pid: otherProcess(), startTime: '1' }));
    lockDataDir(dir).release();
  });

  it('takes over an unreadable lock, and never removes a lock that is not its own', () => {
    const dir = folder();
    writeFileSync(lockFile(dir), 'half-written');
    const lock = lockDataDir(dir);
    writeFileSync(lockFile(dir), JSON.stringify({ pid: 1 }));
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(true);
  });
});
