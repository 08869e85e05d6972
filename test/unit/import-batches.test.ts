import { beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { buildImportPlan } from '../../shared/domain/import/build-import-plan.ts';
import { EMPTY_NOTIFICATION_STATS } from '../../shared/domain/notifications/notification-item.ts';
import { ImportPlan } from '../../shared/domain/import/import-plan.ts';
import { BATCH_LIMITS, type PlannedBatch, planBatches } from '../../shared/domain/import/plan-batches.ts';
import { resolveReferences } from '../../shared/domain/import/resolve-references.ts';
import { parseImportFile } from '../../shared/domain/import/run-import.ts';
import { NOTIFICATION_TYPES } from '../../shared/vocabulary/notifications.ts';
import { MemoryTable } from '../support/import-batches.ts';
import { builtWith } from '../support/import-builders.ts';

/**
 * How an import is cut into transactions (plan-batches.ts), checked in memory: every transaction fits, every
 * committed prefix has counters that match the items it made visible (a crash between two transactions leaves
 * nothing inconsistent), and undoing the batches newest first restores the table exactly.
 */
const NOW = '2026-01-01T00:00:00.000Z';

function plan(raw: unknown, externalUserIds = new Map<string, number>()) {
  const file = parseImportFile(raw);
  resolveReferences(file);
  return buildImportPlan(file, {
    firstIds: { user: 100, space: 200, topic: 300, post: 400, comment: 500, notification: 1000 },
    externalUserIds,
    builders: builtWith(file, {
      // Existing recipients already have a stats item (with no bulk-action watermark).
      notifications: new Map([...externalUserIds.values()].map((id) => [id, EMPTY_NOTIFICATION_STATS])),
    }),
    now: NOW,
  }).plan;
}

/** Notification stats of one recipient recomputed from the notifications a table holds. */
function countedNotifications(table: MemoryTable, userId: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of table.items.values()) {
    if (item.entity !== 'notification' || item.user_id !== userId) continue;
    const add = (name: string) => {
      counts[name] = (counts[name] ?? 0) + 1;
    };
    add('total');
    add(`type:${item.type}`);
    if (!item.is_read) {
      add('unread');
      add(`unread:${item.type}`);
    }
  }
  return counts;
}

const storedCounters = (item: Record<string, unknown> | undefined): Record<string, number> =>
  Object.fromEntries(
    Object.entries(item ?? {}).filter(
      ([name, value]) => typeof value === 'number' && value !== 0 && name !== 'user_id',
    ),
  ) as Record<string, number>;

describe('import batches', () => {
  beforeAll(() => {
    process.env.TABLE_NAME ??= 'unit-test-table';
    resetEnvCache();
  });

  it('keep notification counters equal to the visible notifications after every transaction', () => {
    const existing = new Map(Array.from({ length: 12 }, (_, i) => [`old${i}`, 10 + i] as const));
    const users = Array.from({ length: 8 }, (_, i) => ({
      ref: `new${i}`,
      login: `new${i}`,
      email: `n${i}@example.com`,
    }));
    const recipients = [...existing.keys(), ...users.map((u) => u.ref)];
    const notifications = Array.from({ length: 3000 }, (_, i) => ({
      user: recipients[(i * 7) % recipients.length]!,
      type: NOTIFICATION_TYPES[i % NOTIFICATION_TYPES.length]!,
      is_read: i % 3 === 0,
    }));
    const batches = planBatches(plan({ users, notifications }, existing));

    const table = new MemoryTable();
    // Existing users already have notifications counted: the import adds to their stats, never replaces them.
    for (const id of existing.values())
      table.items.set(MemoryTable.key(`USER#${id}`, 'NOTIFSTATS'), { total: 5, unread: 2 });
    const userIds = [...existing.values(), ...users.map((_, i) => 100 + i)];
    for (const batch of batches) {
      expect(batch.actions.length).toBeLessThanOrEqual(BATCH_LIMITS.actions);
      table.apply(batch);
      for (const id of userIds) {
        const expected = countedNotifications(table, id);
        if (existing.has(`old${id - 10}`)) {
          expected.total = (expected.total ?? 0) + 5;
          expected.unread = (expected.unread ?? 0) + 2;
        }
        expect(storedCounters(table.get(`USER#${id}`, 'NOTIFSTATS'))).toEqual(expected);
      }
    }
    expect(batches.length).toBeGreaterThan(60);
    expect([...table.items.values()].filter((item) => item.entity === 'notification')).toHaveLength(3000);

    for (const batch of [...batches].reverse()) table.undo(batch.undo);
    // What is left: the existing users' stats as they were; every item and aggregate of the import is gone.
    expect([...table.items.keys()].sort()).toEqual(
      [...existing.values()].map((id) => `USER#${id} NOTIFSTATS`).sort(),
    );
    for (const id of existing.values())
      expect(storedCounters(table.get(`USER#${id}`, 'NOTIFSTATS'))).toEqual({ total: 5, unread: 2 });
  });

  it('create a space stats item with the space and move it with every membership, across transactions', () => {
    const members = Array.from({ length: 250 }, (_, i) => ({ user: `member${i}` }));
    const externals = new Map(members.map((m, i) => [m.user, 1000 + i] as const));
    const batches = planBatches(plan({ spaces: [{ ref: 's', title: 'S', slug: 's', members }] }, externals));
    expect(batches.length).toBeGreaterThan(2);
    const table = new MemoryTable();
    for (const [n, batch] of batches.entries()) {
      table.apply(batch);
      const memberships = [...table.items.values()].filter((item) => item.entity === 'membership').length;
      expect(table.get('SPACE#200', 'STATS'), `after batch ${n + 1}`).toMatchObject({
        members_count: memberships,
      });
    }
    expect(table.get('SPACE#200', 'STATS')).toMatchObject({ members_count: 250 });
    // The stats item is put once (first transaction), then moved by ADD.
    const statsPuts = batches.flatMap((b) => b.actions).filter((a) => a.Put?.Item?.sk === 'STATS');
    expect(statsPuts).toHaveLength(1);
    for (const batch of [...batches].reverse()) table.undo(batch.undo);
    expect(table.items.size).toBe(0);
  });

  it('split on bytes before the transaction cap', () => {
    const message = 'x'.repeat(15_000);
    const feeds = Array.from({ length: 120 }, () => ({ user: 'ann', message }));
    const batches = planBatches(plan({ feeds }, new Map([['ann', 7]])));
    for (const batch of batches) {
      expect(Buffer.byteLength(JSON.stringify(batch.actions))).toBeLessThan(4_000_000);
      expect(Buffer.byteLength(JSON.stringify(batch.undo))).toBeLessThan(BATCH_LIMITS.undoBytes);
    }
    expect(batches.length).toBeGreaterThan(1);
  });

  it('refuse a plan that counts into an item before writing it, or writes an item twice', () => {
    const item = { pk: 'X#1', sk: 'X', entity: 'x' };
    const early = new ImportPlan();
    early.unit('counter first', [], [{ key: { pk: 'X#1', sk: 'X' }, deltas: { n: 1 } }]);
    early.unit('item', [item]);
    expect(() => planBatches(early)).toThrow(/counter first counts into X#1 X before it is written/);
    const twice = new ImportPlan();
    twice.unit('a', [item]);
    twice.unit('b', [item]);
    expect(() => planBatches(twice)).toThrow(/writes X#1 X twice/);
  });

  it('delete on rollback only what is unchanged, and guards only while they name their owner', () => {
    const batches: PlannedBatch[] = planBatches(
      plan({
        users: [{ ref: 'ann', login: 'ann', email: 'ann@example.com' }],
        notifications: [{ user: 'ann', type: 'mention' }],
      }),
    );
    const steps = batches.flatMap((batch) => batch.undo);
    expect(steps).toContainEqual({
      op: 'delete',
      pk: 'USERNAME#ann',
      sk: 'USERNAME',
      unchanged: { entity: 'username_guard', user_id: 100 },
    });
    expect(steps).toContainEqual({
      op: 'delete',
      pk: 'NOTIF#1000',
      sk: 'NOTIF',
      unchanged: { is_read: false },
    });
    // The new user's notification stats exist only because of the import: put (not added), deleted on rollback.
    expect(steps).toContainEqual({
      op: 'delete',
      pk: 'USER#100',
      sk: 'NOTIFSTATS',
      unchanged: { total: 1, 'type:mention': 1, unread: 1, 'unread:mention': 1, user_id: 100 },
    });
  });
});
