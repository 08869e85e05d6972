import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resumeMigration } from '../../shared/domain/migrations/resume-migration.ts';
import { startMigration } from '../../shared/domain/migrations/start-migration.ts';
import { countedItems, counterOf } from '../../shared/domain/migrations/run-item.ts';
import { completedMigration } from '../../shared/domain/migrations/migration-mapper.ts';
import type { Caller } from '../../shared/domain/auth/index.ts';
import * as v from 'valibot';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import { postKey } from '../../shared/db/keys/feeds.ts';
import { migrationRunKey } from '../../shared/db/keys/migrations.ts';
import { processMigrationMessage } from '../../shared/domain/migrations/process-migration-message.ts';
import type { MigrationMessage } from '../../shared/messages/index.ts';
import { batchGetItems } from '../../shared/db/reads.ts';
import { readIdSpace } from '../../shared/domain/migrations/id-spaces.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import type { Fixture } from '../support/buddypress/generate.ts';
import { aggregateMismatches } from '../support/migration-aggregates.ts';
import { drive, usePrivateMigrationQueue } from '../support/migration-driver.ts';
import {
  ALL_ITEMS,
  ALL_OPTIONS,
  createAdministrator,
  dropTestSource,
  loadTestSource,
} from '../support/migrations.ts';
import { expectedResults } from '../support/migration-results.ts';

/**
 * Exactly-once counting under SQS's at-least-once delivery: a run whose every message is delivered twice at once,
 * and a run where a worker is killed mid-chunk (after some feeds were written, before the chunk was counted) and
 * the chunk is delivered again, both end with the exact counts of the mapping rules and no duplicate. Each run
 * migrates its own data set (ids shifted), so both create rather than skip; both also check that every feed's
 * `comments_count` and every space's `posts_count` and `members_count` moved exactly once. The messages go to a private queue this
 * file delivers itself (test/support/migration-driver.ts).
 */
const SIZE = { groups: 6, members: 30, activities: 160, seed: 11 };
let caller: Caller;
let member: TestUser;
let queue: Awaited<ReturnType<typeof usePrivateMigrationQueue>>;

beforeAll(async () => {
  ({ caller } = await createAdministrator());
  member = await createTestUser();
  queue = await usePrivateMigrationQueue(inject('stack'));
});

/** A public feed of the fixture that exists already (written by a delivery that has not been counted). */
async function aWrittenFeed(fixture: Fixture): Promise<number> {
  const space = await readIdSpace('buddypress', 'post');
  const { columns, rows } = fixture.tables.bp_activity!;
  const at = (name: string) => columns.indexOf(name);
  const candidates = rows
    .filter((row) => row[at('type')] === 'activity_update' && row[at('component')] === 'activity')
    .map((row) => space!.targetOf(Number(row[at('id')])))
    .filter((id): id is number => id !== undefined);
  const written = await batchGetItems(
    candidates.map((id) => postKey(id)),
    v.object({ id: v.number(), space_id: v.nullable(v.number()) }),
    { consistent: true },
  );
  const feed = written.find((post) => post.space_id === null);
  if (!feed) throw new Error('the killed delivery wrote no global feed');
  return feed.id;
}
afterAll(() => dropTestSource());

const options = ALL_OPTIONS;
const items = ALL_ITEMS;

describe('exactly-once counting', () => {
  it('every SQS message delivered twice, at once: the same exact counts', async () => {
    const fixture = await loadTestSource({ ...SIZE, idBase: 1_000_000 });
    await startMigration(caller, 'buddypress', { items, options });
    const { run } = await drive(queue, { twice: true });
    expect(run?.status).toBe('completed');
    expect(completedMigration(run!).results).toEqual(expectedResults(fixture));
    expect(await aggregateMismatches(fixture)).toEqual([]);
    // Every chunk counted once: the chunk counters equal the planned chunks.
    for (const phase of ['groups', 'members', 'activities'])
      expect(counterOf(run!, `chunks_done_${phase}`)).toBe(counterOf(run!, `chunks_total_${phase}`));
    expect(countedItems(run!.items)).toEqual(['groups', 'members', 'activities', 'comments']);
  }, 240_000);

  it('a worker killed mid-chunk, the chunk delivered again: the same exact counts', async () => {
    const fixture = await loadTestSource({ ...SIZE, idBase: 2_000_000 });
    const started = await startMigration(caller, 'buddypress', { items, options });
    let first = true;
    let reacted: number | undefined;
    const { run, killed } = await drive(queue, {
      killFirst: (message) => {
        // Messages of the earlier run (re-sent plans) may still be queued: they are dropped, not killed.
        if (message.run_id !== started.migration.id) return false;
        if (message.kind !== 'chunk' || message.phase !== 'activities' || !first) return false;
        first = false;
        return true;
      },
      // A member reacts to a feed the killed delivery wrote, before the chunk comes again.
      afterKill: async () => {
        reacted = await aWrittenFeed(fixture);
        const response = await api('POST', `/feeds/${reacted}/react`, {
          as: member,
          body: { react_type: 'like' },
        });
        expect(response.status).toBe(200);
      },
    });
    expect(killed).toEqual([9]);
    expect(run?.status).toBe('completed');
    expect(completedMigration(run!).results).toEqual(expectedResults(fixture));
    expect(await aggregateMismatches(fixture)).toEqual([]);
    // The redelivery kept what the killed one wrote: the reaction made in between still counts.
    const feed = await api<{ feed: { reactions_count: number } }>('GET', `/feeds/${reacted}`, { as: member });
    expect(feed.body.feed.reactions_count).toBe(1);
  }, 240_000);

  it('a chunk lost for good leaves the run stuck until migrate:resume sends its step again: the same exact counts', async () => {
    const fixture = await loadTestSource({ ...SIZE, idBase: 6_000_000 });
    const started = await startMigration(caller, 'buddypress', { items, options });
    let lost = false;
    const stuck = await drive(queue, {
      untilIdle: true,
      lose: (message) => {
        if (lost || message.run_id !== started.migration.id) return false;
        if (message.kind !== 'chunk' || message.phase !== 'members') return false;
        lost = true;
        return true;
      },
    });
    expect(lost).toBe(true);
    expect(stuck.run?.status).toBe('in_progress');
    expect(stuck.run?.phase).toBe('members');
    const resumed = await resumeMigration(caller, 'buddypress');
    expect(resumed.step).toBe('members');
    const { run } = await drive(queue, {});
    expect(run?.status).toBe('completed');
    expect(completedMigration(run!).results).toEqual(expectedResults(fixture));
    expect(await aggregateMismatches(fixture)).toEqual([]);
    await expect(resumeMigration(caller, 'buddypress')).rejects.toMatchObject({
      code: 'migration_not_running',
    });
  }, 240_000);
  it('a plan lost after its phase began: a redelivery plans it again only once that plan cannot still be running', async () => {
    const fixture = await loadTestSource({ ...SIZE, idBase: 7_000_000 });
    const started = await startMigration(caller, 'buddypress', { items, options });
    const ours = (message: MigrationMessage) => message.run_id === started.migration.id;
    let membersChunk: MigrationMessage | undefined;
    const stuck = await drive(queue, {
      untilIdle: true,
      // The phase change to activities is made, its plan message never arrives (its sender died).
      lose: (message) => {
        if (ours(message) && message.kind === 'chunk' && message.phase === 'members') membersChunk = message;
        return ours(message) && message.kind === 'plan' && message.phase === 'activities';
      },
    });
    expect(stuck.run?.phase).toBe('activities');
    expect(stuck.run).not.toHaveProperty('chunks_total_activities');

    // A counted members chunk delivered again right away: the plan might still be running, so nothing is queued.
    await processMigrationMessage(membersChunk!, 2);
    const still = await drive(queue, { untilIdle: true });
    expect(still.run?.phase).toBe('activities');
    expect(still.run).not.toHaveProperty('chunks_total_activities');

    // The same redelivery once the phase began longer ago than a worker may run: the plan was lost, it is sent again.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: migrationRunKey('buddypress'),
        UpdateExpression: 'SET phase_started_at = :long_ago',
        ExpressionAttributeValues: { ':long_ago': '2026-01-01T00:00:00.000Z' },
      }),
    );
    await processMigrationMessage(membersChunk!, 3);
    const { run } = await drive(queue, {});
    expect(run?.status).toBe('completed');
    expect(completedMigration(run!).results).toEqual(expectedResults(fixture));
    expect(await aggregateMismatches(fixture)).toEqual([]);
  }, 240_000);
});
