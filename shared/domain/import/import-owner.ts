import { hostname } from 'node:os';
import type { ImportJournalItem } from './import-journal-item.ts';

/** How often the importing process refreshes `heartbeat_at` while it writes. */
export const HEARTBEAT_INTERVAL_MS = 10_000;

/**
 * After this long without a heartbeat the owner is taken to be gone whatever else is known: it covers owners on
 * other hosts (a CLI on an operator's laptop against a deployed stage) and a reused pid on this host. A live owner
 * that was only paused is safe too: the rollback first moves the journal off `writing`, and every batch the owner
 * commits checks `writing`, so it stops at its next batch.
 */
export const STALE_HEARTBEAT_MS = 120_000;

export const currentOwner = () => ({ owner_host: hostname(), owner_pid: process.pid });

/** Whether a recovery may roll back this `writing` import now. */
export function isOwnerGone(journal: ImportJournalItem, now = Date.now()): boolean {
  if (now - Date.parse(journal.heartbeat_at) > STALE_HEARTBEAT_MS) return true;
  if (journal.owner_host !== hostname()) return false;
  return !isProcessAlive(journal.owner_pid);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
