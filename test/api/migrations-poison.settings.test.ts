import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import type { Fixture } from '../support/buddypress/generate.ts';
import { waitForDeadLetter } from '../support/dead-letters.ts';
import { allFeeds } from '../support/feeds.ts';
import { dropTestSource, loadTestSource, testSource, waitForRun } from '../support/migrations.ts';

/**
 * A poison chunk: one activity update too large to store makes its chunk fail on every delivery. On the last one
 * the chunk's rows are counted failed and the range reported in `errors`, the message lands in the DLQ, and the
 * run still completes with every other count exact. Ids are shifted so this run creates rather than skips.
 *
 * What the given-up chunk stored stays visible, uncounted, until a later run counts it (README): the second case
 * fixes the source row and runs again, which counts them and leaves the global feed's totals exact for the files
 * that read them after this one.
 */
const SIZE = { groups: 6, members: 30, activities: 160, seed: 13, idBase: 3_000_000, poison: true };
let fixture: Fixture;
let admin: TestUser;

beforeAll(async () => {
  fixture = await loadTestSource(SIZE);
  admin = await createTestUser({ hostRole: 'administrator' });
}, 120_000);
afterAll(() => dropTestSource());

describe('a poison chunk', () => {
  it('is counted failed, reported in errors and moved to the DLQ; the run completes', async () => {
    const started = await api('POST', '/migrations/buddypress/start', {
      as: admin,
      body: { items: ['groups', 'members', 'activities'] },
    });
    expect(started.status).toBe(200);
    const body = await waitForRun(admin);
    expect(body.status).toBe('completed');
    const results = body.migration!.results as Record<
      string,
      { total: number; migrated: number; skipped: number; failed: number }
    >;
    expect(results.groups).toEqual({ ...fixture.expected.groups, skipped: 0 });
    expect(results.members).toEqual({ ...fixture.expected.members, skipped: 0 });
    const activities = results.activities!;
    expect(activities.total).toBe(fixture.expected.activities.total);
    expect(activities.migrated + activities.failed).toBe(activities.total);
    expect(activities.failed).toBeGreaterThan(fixture.expected.activities.failed);
    const errors = body.migration!.errors as { item: string; id: string; error: string }[];
    const poisoned = errors.filter((entry) => entry.error.startsWith('chunk failed 3 times'));
    expect(poisoned).toHaveLength(1);
    const [from, to] = poisoned[0]!.id.split('-').map(Number);
    expect(fixture.poisonId).toBeGreaterThanOrEqual(from!);
    expect(fixture.poisonId).toBeLessThanOrEqual(to!);

    // The chunk reaches the DLQ on the receive after its last failure, possibly after the run completed; other
    // runs' chunks may be there too: wait for this run's own.
    const runId = (started.body as { migration: { id: string } }).migration.id;
    const dead = await waitForDeadLetter<Record<string, unknown>>(
      'migrations',
      (message) => message.run_id === runId && message.kind === 'chunk',
    );
    expect(dead).toMatchObject({ kind: 'chunk', phase: 'activities', run_id: runId });
  }, 240_000);

  it('a later run counts what the given-up chunk stored, once the row is fixed', async () => {
    const { serverUrl, database, prefix } = testSource();
    const connection = await mysql.createConnection({ uri: `${serverUrl}/${database}` });
    try {
      await connection.query(`UPDATE \`${prefix}bp_activity\` SET content = 'Fixed update' WHERE id = ?`, [
        fixture.poisonId,
      ]);
    } finally {
      await connection.end();
    }
    const started = await api('POST', '/migrations/buddypress/start', {
      as: admin,
      body: { items: ['groups', 'members', 'activities'] },
    });
    expect(started.status).toBe(200);
    const body = await waitForRun(admin);
    expect(body.status).toBe('completed');
    const activities = (body.migration!.results as Record<string, { migrated: number; failed: number }>)
      .activities!;
    expect(activities.failed).toBe(fixture.expected.activities.failed);
    expect(activities.migrated).toBeGreaterThan(0);
    // Nothing visible is left uncounted: the global feed pages through exactly its total.
    const { feeds, total } = await allFeeds(admin);
    expect(feeds).toHaveLength(total);
  }, 240_000);
});
