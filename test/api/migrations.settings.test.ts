import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMigratedActivities } from '../support/migrated-targets.ts';
import type { Fixture } from '../support/buddypress/generate.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { cli, cliJson } from '../support/cli.ts';
import {
  dropTestSource,
  expectBareError,
  loadTestSource,
  type StatusBody,
  waitForRun,
} from '../support/migrations.ts';
import { expectedResults } from '../support/migration-results.ts';
import { SQL_DATE_TIME } from '../support/topics.ts';

/**
 * The BuddyPress migration end to end through the gateway and the `migrations` workers, against a generated
 * source in MariaDB (a small one; the acceptance size runs through `npm run bench -- migration`). Runs in the
 * settings project: a run holds the one lock and adds public feeds every timeline counts.
 */
const SIZE = { groups: 9, members: 40, activities: 220, seed: 7 };
let fixture: Fixture;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  fixture = await loadTestSource(SIZE);
  [admin, member] = await Promise.all([createTestUser({ hostRole: 'administrator' }), createTestUser()]);
}, 120_000);
afterAll(() => dropTestSource());

const start = (body: unknown, as: TestUser | undefined = admin) =>
  api<Record<string, unknown>>('POST', '/migrations/buddypress/start', { ...(as ? { as } : {}), body });
const status = () => api<StatusBody>('GET', '/migrations/buddypress/status', { as: admin });

describe('who may call the migration endpoints', () => {
  it('anonymous → 401, a member → 403, bare error bodies, and no run starts', async () => {
    for (const [method, path] of [
      ['GET', '/migrations'],
      ['GET', '/migrations/buddypress/config'],
      ['GET', '/migrations/buddypress/status'],
    ] as const) {
      expectBareError(await api(method, path), 401, 'rest_not_logged_in');
      expectBareError(await api(method, path, { as: member }), 403, 'rest_forbidden');
    }
    expectBareError(await start({ items: ['groups'] }, member), 403, 'rest_forbidden');
    expect(['available', 'completed']).toContain((await status()).body.status);
  });
});

describe('GET /migrations and config', () => {
  it('lists buddypress as installed with what a run would migrate', async () => {
    const response = await api<{ migrations: Record<string, unknown>[] }>('GET', '/migrations', {
      as: admin,
    });
    expect(response.status).toBe(200);
    expect(response.body.migrations).toEqual([
      {
        id: 'buddypress',
        name: 'BuddyPress',
        description: expect.any(String),
        status: 'available',
        is_installed: true,
        supported_items: ['groups', 'members', 'activities'],
        estimated_items: {
          groups: fixture.expected.groups.total,
          members: fixture.expected.members.total,
          activities: fixture.expected.activities.total,
        },
      },
    ]);
  });

  it('config: items with counts, options defaulting to true, the media warning', async () => {
    const response = await api<{ config: Record<string, Record<string, unknown>> }>(
      'GET',
      '/migrations/buddypress/config',
      { as: admin },
    );
    expect(response.status).toBe(200);
    const { config } = response.body;
    expect(config.available_items!.members).toEqual({
      label: 'Members',
      count: fixture.expected.members.total,
      description: expect.any(String),
    });
    expect(config.options).toEqual({
      migrate_avatars: true,
      migrate_cover_images: true,
      preserve_dates: true,
      skip_existing: true,
    });
    expect((config.warnings as unknown as string[]).some((w) => w.includes('Avatars'))).toBe(true);
  });
});

describe('POST /migrations/buddypress/start refuses bad input', () => {
  it('400 invalid_items for missing, empty, unknown, repeated or non-list items; nothing starts', async () => {
    for (const body of [
      {},
      { items: [] },
      { items: ['messages'] },
      { items: ['groups', 'groups'] },
      { items: 'groups' },
    ]) {
      expectBareError(await start(body), 400, 'invalid_items');
    }
    expectBareError(
      await start({ items: ['groups'], options: { skip_existing: 'yes' } }),
      400,
      'rest_invalid_param',
    );
    // Nothing started: the lock is free (another file's run may have completed before this one).
    expect(['available', 'completed']).toContain((await status()).body.status);
    const list = await api<{ migrations: { status: string }[] }>('GET', '/migrations', { as: admin });
    expect(list.body.migrations[0]!.status).toBe('available');
  });
});

describe('a full run', () => {
  it('ten concurrent starts: one runs, nine are 409 migration_in_progress', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => start({ items: ['groups', 'members', 'activities'] })),
    );
    const ok = responses.filter((response) => response.status === 200);
    expect(ok).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 200))
      expectBareError(response, 409, 'migration_in_progress');
    const migration = ok[0]!.body.migration as Record<string, unknown>;
    expect(migration).toMatchObject({
      id: expect.any(String),
      status: 'in_progress',
      started_at: expect.stringMatching(SQL_DATE_TIME),
      progress: { groups: 0, members: 0, activities: 0, comments: 0 },
      items_to_migrate: {
        groups: fixture.expected.groups.total,
        members: fixture.expected.members.total,
        activities: fixture.expected.activities.total,
      },
      current_step: expect.any(String),
      estimated_time_remaining: expect.any(String),
    });
  });

  it('ends completed with exactly the counts the mapping rules give, unmappable rows in errors', async () => {
    const body = await waitForRun(admin);
    expect(body.status).toBe('completed');
    const migration = body.migration!;
    expect(migration.started_at).toMatch(SQL_DATE_TIME);
    expect(migration.completed_at).toMatch(SQL_DATE_TIME);
    expect(migration.duration).toEqual(expect.any(String));
    expect(migration.results).toEqual(expectedResults(fixture));
    const errors = migration.errors as { item: string; id: string; error: string }[];
    const failedIds = (item: string) =>
      errors
        .filter((e) => e.item === item)
        .map((e) => Number(e.id))
        .sort((a, b) => a - b);
    expect(failedIds('activities')).toEqual(fixture.unmappable.activities);
    expect(failedIds('comments')).toEqual(fixture.unmappable.comments);
    expect(errors.every((e) => e.error.includes('not found'))).toBe(true);
    // The lock is released.
    const list = await api<{ migrations: { status: string }[] }>('GET', '/migrations', { as: admin });
    expect(list.body.migrations[0]!.status).toBe('available');
  });

  it('migrated feeds are visible through the API with their original dates', async () => {
    const sourceId = fixture.sample.activity.id;
    const feedId = await mapped(sourceId);
    expect(feedId).toBeDefined();
    const feed = await api<{ feed: Record<string, unknown> }>('GET', `/feeds/${feedId}`, {
      as: admin,
    });
    expect(feed.status).toBe(200);
    expect(feed.body.feed.created_at).toBe(fixture.sample.activity.date.replace(' ', 'T'));
    expect(feed.body.feed.message).toBe(fixture.sample.activity.content);
    const comments = await api<{ comments: Record<string, unknown>[] }>('GET', `/feeds/${feedId}/comments`, {
      as: admin,
    });
    expect(comments.status).toBe(200);
  });

  it('a second run with skip_existing migrates nothing and duplicates nothing', async () => {
    const sourceId = fixture.sample.activity.id;
    const before = await api<{ feed: Record<string, unknown> }>('GET', `/feeds/${await mapped(sourceId)}`, {
      as: admin,
    });
    const started = await start({
      items: ['groups', 'members', 'activities'],
      options: { skip_existing: true },
    });
    expect(started.status).toBe(200);
    const body = await waitForRun(admin);
    expect(body.status).toBe('completed');
    expect(body.migration!.results).toEqual(expectedResults(fixture, true));
    const after = await api<{ feed: Record<string, unknown> }>('GET', `/feeds/${await mapped(sourceId)}`, {
      as: admin,
    });
    expect(after.body.feed).toEqual(before.body.feed);
  });
});

describe('operator CLI', () => {
  it('migrate:start (skip_existing no: every row updated in place) and migrate:status --follow until it ends', async () => {
    const refused = await cli('migrate:start', '--items', 'groups,messages');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('items');
    const started = cliJson(await cli('migrate:start', '--skip-existing', 'no')) as Record<string, unknown>;
    expect(started).toMatchObject({ migration: { status: 'in_progress' } });
    const followed = await cli('migrate:status', '--follow');
    expect(followed.code).toBe(0);
    const lines = followed.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const final = JSON.parse(lines[0]!) as StatusBody;
    expect(final.status).toBe('completed');
    expect(final.migration!.results).toEqual(expectedResults(fixture));
    // The progress ends on what the result counts, item by item.
    for (const [item, result] of Object.entries(
      final.migration!.results as Record<string, Record<string, number>>,
    )) {
      expect(followed.stderr).toContain(
        `${item}: ${result.total}/${result.total} (${result.migrated} migrated, ${result.skipped} skipped, ${result.failed} failed)`,
      );
    }
    // Nothing to resume once the run has ended.
    const resume = await cli('migrate:resume');
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain('No migration is running');
  }, 240_000);
});

const mapped = async (activityId: number) =>
  (await findMigratedActivities('buddypress', [activityId])).feeds.get(activityId);
