import { beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { counterCreation } from '../../shared/db/counters.ts';
import { nearestParent, underSpam } from '../../shared/domain/migrations/comment-trees.ts';
import { IdSpace } from '../../shared/domain/migrations/id-spaces.ts';
import { LEDGER_BLOCK, LedgerRecord } from '../../shared/domain/migrations/ledger.ts';
import {
  errorBytesLeft,
  packChunkErrors,
  unpackRunErrors,
} from '../../shared/domain/migrations/run-errors.ts';
import { MIGRATION_ERRORS_BYTES } from '../../shared/vocabulary/migrations.ts';
import { TALLY_SHARDS, Tally, tallyShardOf, unpackCounters } from '../../shared/domain/migrations/tally.ts';
import type { ActivityRow } from '../../shared/integrations/buddypress/source.ts';

describe('id spaces: source id → target id, stable across runs', () => {
  const space = new IdSpace('post', [
    { from: 1, to: 100, first: 501 },
    { from: 201, to: 250, first: 2001 },
  ]);

  it('maps every covered id into its segment’s block, in order, and no other id', () => {
    expect(space.targetOf(1)).toBe(501);
    expect(space.targetOf(100)).toBe(600);
    expect(space.targetOf(201)).toBe(2001);
    expect(space.targetOf(250)).toBe(2050);
    expect(space.targetOf(150)).toBeUndefined();
    expect(space.targetOf(251)).toBeUndefined();
    // Distinct source ids never share a target.
    const targets = [
      ...Array.from({ length: 100 }, (_, i) => i + 1),
      ...Array.from({ length: 50 }, (_, i) => i + 201),
    ].map((id) => space.targetOf(id));
    expect(new Set(targets).size).toBe(150);
  });

  it('names the gaps an extension must reserve: below, between and above the segments', () => {
    expect(space.gaps(1, 100)).toEqual([]);
    expect(space.gaps(50, 300)).toEqual([
      { from: 101, to: 200 },
      { from: 251, to: 300 },
    ]);
    expect(new IdSpace('user', []).gaps(5, 9)).toEqual([{ from: 5, to: 9 }]);
    expect(new IdSpace('user', [{ from: 10, to: 20, first: 1 }]).gaps(1, 30)).toEqual([
      { from: 1, to: 9 },
      { from: 21, to: 30 },
    ]);
  });
});

describe('ledger entries: what a counted chunk migrated', () => {
  it('one entry per block of its rows, a comment with its root, ids packed small', () => {
    const record = new LedgerRecord();
    for (let id = 1; id <= 1000; id++) record.addRow(LEDGER_BLOCK - 500 + id);
    record.addComment(LEDGER_BLOCK - 400, 3 * LEDGER_BLOCK);
    const entries = record.entries('buddypress', 'activity', 'run-7', 4);
    expect(entries.map((entry) => entry.pk)).toEqual([
      'MIGLEDGER#buddypress#activity#0',
      'MIGLEDGER#buddypress#activity#1',
    ]);
    expect(entries.every((entry) => entry.sk === 'RUN#run-7#000000000004')).toBe(true);
    // The comment goes with its root (block 0), whatever its own id.
    expect(entries[0]!.comments).toBeDefined();
    expect(entries[1]!.comments).toBeUndefined();
    expect(entries[0]!.rows.length).toBeLessThan(200);
  });
});

describe('run errors: packed per chunk in the run item', () => {
  const errorsOf = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      item: i % 3 === 0 ? 'activities' : 'comments',
      id: String(from + i * 7),
      error: `author ${5_000 + (i % 50)} not found`,
    }));

  it('keeps every error of a chunk, in order, after those of earlier chunks and of older runs', () => {
    const older = [{ item: 'members', id: '3', error: 'user 9 not found' }];
    const first = packChunkErrors(errorsOf(100, 40), MIGRATION_ERRORS_BYTES)!;
    const second = packChunkErrors(errorsOf(9_000, 25), MIGRATION_ERRORS_BYTES)!;
    expect(unpackRunErrors({ errors: older, errors_packed: [first, second] })).toEqual([
      ...older,
      ...errorsOf(100, 40),
      ...errorsOf(9_000, 25),
    ]);
    // About ten bytes an error: the run item holds some ten thousand before it stops keeping them.
    expect(first.byteLength / 40).toBeLessThan(12);
  });

  it('cuts a chunk’s errors to the room left, and keeps none once the run is full', () => {
    const errors = errorsOf(1, 2_000);
    const whole = packChunkErrors(errors, MIGRATION_ERRORS_BYTES)!;
    const cut = packChunkErrors(errors, Math.floor(whole.byteLength / 3))!;
    expect(cut.byteLength).toBeLessThanOrEqual(whole.byteLength / 3);
    const kept = unpackRunErrors({ errors: [], errors_packed: [cut] });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(errors.slice(0, kept.length));
    expect(errorBytesLeft({ errors_bytes: MIGRATION_ERRORS_BYTES + 10 })).toBe(0);
    expect(packChunkErrors(errors, 0)).toBeUndefined();
    expect(packChunkErrors([], MIGRATION_ERRORS_BYTES)).toBeUndefined();
  });
});

describe('tallies: aggregates summed over a run, stored by shard', () => {
  it('sums per counter item, keeps the identity of items it may create, and sorts by key', () => {
    const tally = new Tally();
    tally.add({ pk: 'USER#2', sk: 'STATS' }, { feeds_published: 1 }, { entity: 'user_stats', user_id: 2 });
    tally.add({ pk: 'USER#1', sk: 'PROFILE' }, { total_points: 5 });
    tally.add({ pk: 'USER#2', sk: 'STATS' }, { feeds_published: 2, comments_published: 1 });
    tally.add({ pk: 'USER#1', sk: 'PROFILE' }, { total_points: 2 });
    tally.add({ pk: 'SPACE#9', sk: 'STATS' }, { posts_count: 0 });
    const entries = tally.entries();
    expect(entries.map((entry) => entry.key.pk)).toEqual(['USER#1', 'USER#2']);
    expect(Object.fromEntries(entries[0]!.deltas.entries())).toEqual({ total_points: 7 });
    expect(Object.fromEntries(entries[1]!.deltas.entries())).toEqual({
      feeds_published: 3,
      comments_published: 1,
    });
    expect(entries[1]!.identity).toEqual({ entity: 'user_stats', user_id: 2 });
  });

  it('cuts a tally into one stored item per shard, each packed and read back whole', () => {
    const tally = new Tally();
    for (let user = 1; user <= 200; user++)
      tally.add({ pk: `USER#${user}`, sk: 'STATS' }, { comments_published: user }, { user_id: user });
    const items = tally.shardItems('run-1', 'activity', 3);
    expect(items.length).toBeGreaterThan(1);
    expect(items.length).toBeLessThanOrEqual(TALLY_SHARDS);
    const seen = new Map<string, number>();
    for (const item of items) {
      expect(item.sk).toMatch(/^TALLY#\d{12}#activity#000000000003$/);
      for (const [pk, sk, deltas, identity] of unpackCounters(item.counters)) {
        expect(sk).toBe('STATS');
        expect(item.sk).toContain(`TALLY#${String(tallyShardOf({ pk, sk })).padStart(12, '0')}#`);
        expect(identity).toEqual({ user_id: Number(pk.slice(5)) });
        seen.set(pk, deltas.comments_published!);
      }
    }
    expect(seen.size).toBe(200);
    expect(seen.get('USER#150')).toBe(150);
  });

  it('refuses a stored tally that is not one', () => {
    expect(() => unpackCounters(new Uint8Array([1, 2, 3]))).toThrow();
  });
});

describe('counterCreation: an aggregate item created whole', () => {
  beforeAll(() => {
    process.env.TABLE_NAME ??= 'unit-test-table';
    resetEnvCache();
  });

  it('puts identity and counters only if the item is absent', () => {
    const action = counterCreation(
      { pk: 'USER#4', sk: 'STATS' },
      { a: 2, b: 0, c: 1 },
      { entity: 'user_stats' },
    );
    expect(action.Put?.TableName).toBe(process.env.TABLE_NAME);
    expect(action.Put?.Item).toEqual({ pk: 'USER#4', sk: 'STATS', entity: 'user_stats', a: 2, c: 1 });
    expect(action.Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
  });

  it('never starts a counter below zero', () => {
    expect(() => counterCreation({ pk: 'USER#4', sk: 'STATS' }, { a: -1 })).toThrow(/negative/);
  });
});

describe('comment trees', () => {
  const row = (id: number, parent: number, spam = false): ActivityRow => ({
    id,
    userId: 1,
    component: 'activity',
    type: 'activity_comment',
    content: '',
    itemId: 10,
    secondaryItemId: parent,
    dateRecorded: '2024-01-01 00:00:00',
    isSpam: spam,
    mpttLeft: 0,
  });
  const tree = [row(11, 10), row(12, 11, true), row(13, 12), row(14, 13), row(15, 11), row(16, 99)];
  const byId = new Map(tree.map((comment) => [comment.id, comment]));

  it('a spam comment takes its whole subtree out', () => {
    expect(tree.filter((comment) => underSpam(comment, byId)).map((comment) => comment.id)).toEqual([
      12, 13, 14,
    ]);
  });

  it('a comment hangs from its nearest ancestor with a target, else from the feed', () => {
    const targets = new Map([[11, 1011]]);
    expect(nearestParent(row(15, 11), byId, targets)).toBe(1011);
    // Its parent (13) has no target: up the tree to 11.
    expect(nearestParent(row(14, 13), byId, targets)).toBe(1011);
    // A direct reply to the root, and an orphan whose parent is gone, hang from the feed.
    expect(nearestParent(row(11, 10), byId, targets)).toBeNull();
    expect(nearestParent(row(16, 99), byId, targets)).toBeNull();
  });
});
