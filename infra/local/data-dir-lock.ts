import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isProcessAlive, lockFilePath } from '../../shared/config/local-stack-files.ts';

/**
 * One local stack per data folder: `<folder>/stack.lock` holds the pid of the stack using it. Two stacks on one
 * folder would run two DynamoDB Local and two fauxqs on the same files, and requests fail.
 *
 * - Taking the lock creates the file atomically (a hard link of a complete file: never seen half-written, and
 *   it fails if the file exists), so of two starts at the same moment exactly one wins.
 * - A lock whose process is gone (killed with SIGKILL, a crash, a reboot) is stale and taken over. A pid the
 *   system has since given to another process is recognised by its start time (Linux).
 * - Taking over moves the stale file aside and checks that what it moved is the stale lock it read; if a
 *   concurrent start had already replaced it, that lock is put back. Two starts racing over one stale lock
 *   therefore also end with one winner.
 */
export interface DataDirLock {
  readonly path: string;
  /** Removes the lock if it is still this process's; safe to call twice. */
  release(): void;
}

export class DataDirInUse extends Error {
  readonly dataDir: string;
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(`The data folder ${dataDir} is in use by another local stack (pid ${pid}).`);
    this.name = 'DataDirInUse';
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

interface Holder {
  readonly pid: number;
  /** /proc start time of the process (clock ticks since boot), when known. */
  readonly startTime?: string;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const path = lockFilePath(dataDir);
  const content = `${JSON.stringify({ pid: process.pid, startTime: startTimeOf(process.pid) })}\n`;
  for (let attempt = 0; attempt < 10; attempt++) {
    if (create(path, content)) {
      return {
        path,
        release: () => {
          if (read(path) === content) rmSync(path, { force: true });
        },
      };
    }
    const found = read(path);
    if (found === undefined) continue; // released meanwhile
    const holder = parse(found);
    if (holder && isRunning(holder)) throw new DataDirInUse(dataDir, holder.pid);
    removeStale(path, found);
  }
  throw new Error(`Could not take the lock ${path}: it keeps changing.`);
}

function create(path: string, content: string): boolean {
  const draft = `${path}.${process.pid}.draft`;
  writeFileSync(draft, content, { mode: 0o600 });
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

function removeStale(path: string, stale: string): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another start removed it
    throw error;
  }
  const moved = read(aside);
  if (moved !== stale && moved !== undefined) {
    // A fresh lock of a concurrent start, not the stale one: put it back (if a third start took the place in
    // between, it holds the folder now and this start will see it).
    try {
      linkSync(aside, path);
    } catch {
      // see above
    }
  }
  rmSync(aside, { force: true });
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parse(content: string): Holder | undefined {
  try {
    const parsed = JSON.parse(content) as Partial<Holder>;
    return Number.isInteger(parsed.pid) ? (parsed as Holder) : undefined;
  } catch {
    return undefined; // unreadable: treated as stale
  }
}

function isRunning(holder: Holder): boolean {
  if (holder.pid === process.pid || !isProcessAlive(holder.pid)) return false;
  const startTime = startTimeOf(holder.pid);
  return holder.startTime === undefined || startTime === undefined || startTime === holder.startTime;
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command, which may contain spaces). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
