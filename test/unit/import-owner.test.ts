import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { ImportJournalItem } from '../../shared/domain/import/import-journal-item.ts';
import { isOwnerGone, STALE_HEARTBEAT_MS } from '../../shared/domain/import/import-owner.ts';

/** When a recovery may roll an unfinished import back: only once the process that writes it is gone. */
const journal = (overrides: Partial<ImportJournalItem>): ImportJournalItem => ({
  import_id: 'x',
  status: 'writing',
  owner_host: hostname(),
  owner_pid: process.pid,
  started_at: new Date().toISOString(),
  heartbeat_at: new Date().toISOString(),
  batches: 2,
  items: {},
  ...overrides,
});

describe('import owner', () => {
  it('is alive while its process runs on this host and its heartbeat is fresh', () => {
    expect(isOwnerGone(journal({}))).toBe(false);
  });

  it('is gone when its process on this host has exited', () => {
    const { pid } = spawnSync('true');
    expect(isOwnerGone(journal({ owner_pid: pid! }))).toBe(true);
  });

  it('on another host, is judged by its heartbeat alone', () => {
    expect(isOwnerGone(journal({ owner_host: 'elsewhere', owner_pid: 1 }))).toBe(false);
    const stale = new Date(Date.now() - STALE_HEARTBEAT_MS - 1000).toISOString();
    expect(isOwnerGone(journal({ owner_host: 'elsewhere', heartbeat_at: stale }))).toBe(true);
    // A stale heartbeat wins over a live pid too (the pid may have been reused).
    expect(isOwnerGone(journal({ heartbeat_at: stale }))).toBe(true);
  });
});
