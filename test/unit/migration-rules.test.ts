import { describe, expect, it } from 'vitest';
import { sourceHtmlToText } from '../../shared/domain/migrations/chunk-input.ts';
import { privacyOf } from '../../shared/domain/migrations/migrate-groups.ts';
import {
  completedMigration,
  runningMigration,
  spokenDuration,
} from '../../shared/domain/migrations/migration-mapper.ts';
import type { RunItem } from '../../shared/domain/migrations/run-item.ts';
import { validItems } from '../../shared/domain/migrations/start-migration.ts';
import { sourceDateToIso } from '../../shared/integrations/buddypress/source.ts';

const run = (extra: Record<string, unknown> = {}): RunItem =>
  ({
    run_id: 'r1',
    source: 'buddypress',
    status: 'in_progress',
    items: ['groups', 'members', 'activities'],
    options: { migrate_avatars: true, migrate_cover_images: true, preserve_dates: true, skip_existing: true },
    totals: { groups: 10, members: 100, activities: 50, comments: 40 },
    phase: 'members',
    started_at: '2026-11-23T01:00:00.000Z',
    errors: [],
    errors_packed: [],
    errors_bytes: 0,
    ...extra,
  }) as RunItem;

describe('mapping rules', () => {
  it('group privacy: public → public, private → private, hidden → secret, anything else unmappable', () => {
    expect(['public', 'private', 'hidden', 'club'].map(privacyOf)).toEqual([
      'public',
      'private',
      'secret',
      undefined,
    ]);
  });

  it('BuddyPress HTML becomes text: mention anchors back to @login, entities decoded, tags dropped', () => {
    expect(
      sourceHtmlToText(
        'Hi <a class="bp-suggestions-mention" href="/members/ann/">@ann</a> &quot;x&quot; &amp; <b>y</b><br/>z',
      ),
    ).toBe('Hi @ann "x" & y\nz');
  });

  it('GMT source dates are UTC; the zero date is unknown', () => {
    expect(sourceDateToIso('2024-02-29 23:59:59')).toBe('2024-02-29T23:59:59.000Z');
    expect(sourceDateToIso('0000-00-00 00:00:00')).toBeUndefined();
  });

  it('items: a non-empty list of distinct known items', () => {
    expect(validItems(['activities', 'groups'])).toEqual(['activities', 'groups']);
    for (const bad of [undefined, [], ['messages'], ['groups', 'groups'], 'groups', [1]])
      expect(() => validItems(bad)).toThrow(expect.objectContaining({ code: 'invalid_items', status: 400 }));
  });
});

describe('status shapes', () => {
  it('in progress: per item total, completed and percentage, the step and an estimate from the measured rate', () => {
    const running = runningMigration(
      run({
        n_groups_migrated: 10,
        n_members_migrated: 40,
        n_members_failed: 10,
        chunks_total_members: 4,
        chunks_done_members: 2,
      }),
      '2026-11-23T01:01:00.000Z',
    );
    expect(running.progress).toEqual({
      groups: { total: 10, completed: 10, percentage: 100 },
      members: { total: 100, completed: 50, percentage: 50 },
      activities: { total: 50, completed: 0, percentage: 0 },
      comments: { total: 40, completed: 0, percentage: 0 },
    });
    expect(running.current_step).toBe('Step 2 of 4: members, chunk 2 of 4 done');
    // 60 done in 60 s, 140 left: 140 s.
    expect(running.estimated_time_remaining).toBe('2 minutes 20 seconds');
    expect(running.started_at).toBe('2026-11-23 01:00:00');
  });

  it('the closing step moves the totals, shard by shard', () => {
    const closing = runningMigration(
      run({ phase: 'tally', chunks_total_tally: 16, chunks_done_tally: 5 }),
      '2026-11-23T01:01:00.000Z',
    );
    expect(closing.current_step).toBe('Step 4 of 4: totals of members and spaces, shard 5 of 16 done');
  });

  it('completed: results per item add up, errors kept, SQL timestamps and a spoken duration', () => {
    const done = completedMigration(
      run({
        status: 'completed',
        completed_at: '2026-11-23T01:02:05.000Z',
        n_activities_migrated: 5,
        n_activities_skipped: 2,
        n_activities_failed: 1,
        errors: [{ item: 'activities', id: '7', error: 'author 9 not found' }],
      }),
    );
    expect(done.results.activities).toEqual({ total: 8, migrated: 5, skipped: 2, failed: 1 });
    expect(done.results.groups).toEqual({ total: 0, migrated: 0, skipped: 0, failed: 0 });
    expect(done.completed_at).toBe('2026-11-23 01:02:05');
    expect(done.duration).toBe('2 minutes 5 seconds');
    expect(done.errors).toHaveLength(1);
    expect(spokenDuration(3661)).toBe('1 hour 1 minute 1 second');
  });
});
