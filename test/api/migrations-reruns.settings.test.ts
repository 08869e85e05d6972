import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMigratedActivities } from '../support/migrated-targets.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import type { Fixture } from '../support/buddypress/generate.ts';
import {
  dropTestSource,
  loadTestSource,
  type StatusBody,
  testSource,
  waitForRun,
} from '../support/migrations.ts';

/**
 * Runs after the first: what the platform did to migrated content in between stays done, and what the source
 * gained in between arrives once. A feed a moderator deleted is not brought back (skipped, with skip_existing on
 * or off); a reply posted in BuddyPress under an already migrated update is added to that feed, whose
 * `comments_count` grows by exactly one. Ids are shifted so this file's rows are its own.
 */
const SIZE = { groups: 5, members: 25, activities: 120, seed: 29, idBase: 5_000_000 };
let fixture: Fixture;
let admin: TestUser;

beforeAll(async () => {
  fixture = await loadTestSource(SIZE);
  admin = await createTestUser({ hostRole: 'administrator' });
}, 120_000);
afterAll(() => dropTestSource());

type Results = Record<string, { total: number; migrated: number; skipped: number; failed: number }>;
async function run(options: Record<string, boolean> = {}): Promise<Results> {
  const started = await api('POST', '/migrations/buddypress/start', {
    as: admin,
    body: { items: ['groups', 'members', 'activities'], options },
  });
  expect(started.status).toBe(200);
  const body: StatusBody = await waitForRun(admin);
  expect(body.status).toBe('completed');
  return body.migration!.results as Results;
}

const column = (name: string) => fixture.tables.bp_activity!.columns.indexOf(name);
/** Source ids of migrated global updates (no group, not spam, not hidden, author known). */
function globalUpdates(): number[] {
  const gone = new Set(fixture.unmappable.activities);
  return fixture.tables
    .bp_activity!.rows.filter(
      (row) =>
        row[column('type')] === 'activity_update' &&
        row[column('component')] === 'activity' &&
        Number(row[column('is_spam')]) === 0 &&
        Number(row[column('hide_sitewide')]) === 0 &&
        !gone.has(Number(row[column('id')])),
    )
    .map((row) => Number(row[column('id')]));
}

const feedOf = async (sourceId: number) => {
  const feedId = (await findMigratedActivities('buddypress', [sourceId])).feeds.get(sourceId)!;
  return {
    feedId,
    response: await api<{ feed: { comments_count: number } }>('GET', `/feeds/${feedId}`, { as: admin }),
  };
};

describe('later runs', () => {
  it('a feed deleted on the platform stays deleted, skip_existing on or off', async () => {
    const first = await run();
    expect(first.activities!.migrated).toBe(fixture.expected.activities.migrated);
    const [deletedSource] = globalUpdates();
    const { feedId } = await feedOf(deletedSource!);
    expect((await api('DELETE', `/feeds/${feedId}`, { as: admin })).status).toBe(200);

    const skipping = await run({ skip_existing: true });
    expect(skipping.activities).toMatchObject({ migrated: 0, skipped: fixture.expected.activities.migrated });
    expect((await api('GET', `/feeds/${feedId}`, { as: admin })).status).toBe(404);

    // skip_existing off: every other feed is brought up to date in place; the deleted one is skipped.
    const updating = await run({ skip_existing: false });
    expect(updating.activities).toMatchObject({
      migrated: fixture.expected.activities.migrated - 1,
      skipped: 1,
      failed: fixture.expected.activities.failed,
    });
    expect((await api('GET', `/feeds/${feedId}`, { as: admin })).status).toBe(404);
  }, 240_000);

  it('a reply posted in BuddyPress since is added to its migrated feed, counted once', async () => {
    const [, root] = globalUpdates();
    const before = await feedOf(root!);
    expect(before.response.status).toBe(200);
    const { serverUrl, database, prefix } = testSource();
    const connection = await mysql.createConnection({ uri: `${serverUrl}/${database}` });
    try {
      const author = fixture.tables.users!.rows[0]![0];
      await connection.query(
        `INSERT INTO \`${prefix}bp_activity\` (user_id, component, type, action, content, primary_link, item_id,
          secondary_item_id, date_recorded, hide_sitewide, mptt_left, mptt_right, is_spam)
         VALUES (?, 'activity', 'activity_comment', '', 'A late reply', '', ?, ?, '2026-11-20 10:00:00', 0, 0, 0, 0)`,
        [author, root, root],
      );
    } finally {
      await connection.end();
    }
    const results = await run({ skip_existing: true });
    expect(results.comments).toMatchObject({ migrated: 1, failed: fixture.expected.comments.failed });
    expect(results.activities).toMatchObject({ migrated: 0 });
    const after = await feedOf(root!);
    expect(after.response.body.feed.comments_count).toBe(before.response.body.feed.comments_count + 1);
    const comments = await api<{ comments: { data: { message: string }[] } }>(
      'GET',
      `/feeds/${after.feedId}/comments?per_page=100`,
      { as: admin },
    );
    expect(comments.body.comments.data.map((comment) => comment.message)).toContain('A late reply');
  }, 240_000);
});
