import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../shared/config/env.ts';
import { db, resetDbClient, tableName } from '../../shared/db/client.ts';
import { notificationStatsKey } from '../../shared/db/keys/notifications.ts';
import { createTableInput } from '../../shared/db/table-definition.ts';
import { ImportInterrupted } from '../../shared/domain/import/import-error.ts';
import { findImportJournals } from '../../shared/domain/import/import-journal-repository.ts';
import { recoverUnfinishedImports } from '../../shared/domain/import/recover-imports.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { getNotificationStats } from '../../shared/domain/notifications/notification-repository.ts';
import { markNotificationsRead } from '../../shared/domain/notifications/notification-state-repository.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';

/**
 * The rollback of a journaled import against the real emulator, for every kind of item the sections write: a
 * fault injected into the client (a transaction that fails as if the database had gone away, something the
 * emulator cannot be asked to do on cue) stops the import after some transactions committed, and the table must
 * come back exactly as it was. This file works on a table of its own (created and dropped here), so it can Scan it
 * to prove nothing is left, and so its unfinished imports never meet another file's recovery.
 */
const FAULT = 'importRollbackFault';

type TransactInput = { TransactItems?: Record<string, unknown>[] };
/** A forward batch of a journaled import: the only transactions that check the journal. */
const isBatch = (input: TransactInput) =>
  input.TransactItems?.some((action) => 'ConditionCheck' in action) ?? false;
/** A batch's undo: it deletes the batch's marker. */
const isUndo = (input: TransactInput) =>
  input.TransactItems?.some(
    (action) => 'Delete' in action && JSON.stringify(action.Delete).includes('BATCH#'),
  ) ?? false;

/** Fails every request `fails` picks (the n-th forward batch, every undo, …) until removed. */
function injectFault(fails: (input: TransactInput & Record<string, unknown>) => boolean): void {
  db().middlewareStack.add(
    (next) => async (args) => {
      if (fails(args.input as TransactInput & Record<string, unknown>)) {
        throw Object.assign(new Error('injected: the database went away'), { name: 'ServiceUnavailable' });
      }
      return next(args);
    },
    { step: 'initialize', name: FAULT },
  );
}
const removeFault = () => db().middlewareStack.remove(FAULT);

const nthBatch = (n: number) => {
  let seen = 0;
  return (input: TransactInput) => isBatch(input) && ++seen === n;
};

async function scanAll(): Promise<Map<string, Record<string, unknown>>> {
  const items = new Map<string, Record<string, unknown>>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) items.set(`${item.pk} ${item.sk}`, item);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * The table after a rollback equals the table before, except the id sequences (ids are never reused) and shared
 * counters an ADD created and the undo brought back to zero (a zero counter reads as an absent one).
 */
async function expectRestored(before: Map<string, Record<string, unknown>>): Promise<void> {
  const after = await scanAll();
  for (const [key, item] of after) {
    if (key.startsWith('SEQ#')) continue;
    const was = before.get(key) ?? { pk: item.pk, sk: item.sk };
    const zerosAdded = Object.entries(item).filter(([name, value]) => value === 0 && !(name in was));
    const now = Object.fromEntries(
      Object.entries(item).filter(([name]) => !zerosAdded.some(([added]) => added === name)),
    );
    expect(now, key).toEqual(was);
  }
  for (const key of before.keys()) if (!key.startsWith('SEQ#')) expect(after.has(key), key).toBe(true);
}

/** A file touching every section, large enough for several transactions. */
function richFile(existing: readonly string[]) {
  const users = ['ann', 'bob', 'cid'].map((ref) => ({
    ref,
    login: `rb_${ref}`,
    email: `rb_${ref}@example.com`,
  }));
  return {
    users,
    spaces: [
      {
        ref: 'club',
        title: 'Club',
        slug: 'club',
        members: [{ user: 'ann', role: 'admin' }, { user: existing[0] }],
      },
    ],
    topics: [
      { ref: 'news', title: 'News', parent: null },
      { ref: 'local', title: 'Local news', parent: 'news' },
    ],
    courses: [
      {
        ref: 'ts',
        title: 'TS',
        slug: 'ts',
        admins: ['bob'],
        students: ['ann', existing[1]],
        lessons: [
          { ref: 'l1', title: 'One', slug: 'one' },
          {
            ref: 'l2',
            title: 'Two',
            slug: 'two',
            status: 'draft',
            quiz: {
              questions: [
                {
                  id: 'q',
                  type: 'multiple_choice',
                  question: '?',
                  options: [
                    { id: 'a', text: 'A', is_correct: true },
                    { id: 'b', text: 'B', is_correct: false },
                  ],
                },
              ],
            },
          },
        ],
      },
    ],
    feeds: [
      { ref: 'hello', user: 'ann', space: 'club', message: 'Hello', topics: ['news', 'local'] },
      { ref: 'draft', user: existing[0], message: 'Later', status: 'draft', topics: ['news'] },
    ],
    comments: [
      { ref: 'c1', user: 'bob', feed: 'hello', message: 'Hi' },
      { ref: 'c2', user: existing[1], feed: 'hello', parent: 'c1', message: 'Re' },
      { user: 'cid', course: 'ts', lesson: 'l1', message: 'Question', status: 'pending' },
    ],
    notifications: Array.from({ length: 240 }, (_, i) => ({
      user: [...users.map((u) => u.ref), ...existing][i % 5]!,
      type: i % 2 === 0 ? 'mention' : 'new_comment',
      is_read: i % 3 === 0,
      object_type: 'feed',
      object: 'hello',
    })),
  };
}

describe('an import that fails after some transactions committed', () => {
  const existing: { id: number; login: string }[] = [];
  const savedTable = process.env.TABLE_NAME;

  beforeAll(async () => {
    process.env.TABLE_NAME = `import-rollback-${process.pid}-${Date.now()}`;
    resetEnvCache();
    resetDbClient();
    await db().send(new CreateTableCommand(createTableInput(tableName())));
    for (const login of ['rb_old1', 'rb_old2']) {
      const user = await createUser({ login, email: `${login}@example.com` });
      existing.push({ id: user.id, login });
    }
  });

  afterAll(async () => {
    removeFault();
    await db().send(new DeleteTableCommand({ TableName: tableName() }));
    process.env.TABLE_NAME = savedTable;
    resetEnvCache();
    resetDbClient();
  });

  it('is rolled back at once, leaving the table exactly as it was', async () => {
    const before = await scanAll();
    injectFault(nthBatch(4));
    const error = await runImport(richFile(existing.map((u) => u.login))).catch((e: unknown) => e);
    removeFault();
    expect(error).toBeInstanceOf(ImportInterrupted);
    expect(error).toMatchObject({ rolledBack: true });
    expect((error as Error).message).toMatch(/failed and was rolled back, nothing imported: injected/);
    await expectRestored(before);
    expect(await findImportJournals()).toEqual([]);
  });

  it('is left to a recovery when the rollback cannot run, which waits while its owner lives', async () => {
    const before = await scanAll();
    // The fourth batch fails, and from then on every write to the journal: the rollback cannot even start.
    const fourth = nthBatch(4);
    let down = false;
    injectFault((input) => {
      if (fourth(input)) down = true;
      return down && !('KeyConditionExpression' in input) && JSON.stringify(input).includes('JOURNAL#');
    });
    const error = await runImport(richFile(existing.map((u) => u.login))).catch((e: unknown) => e);
    removeFault();
    expect(error).toMatchObject({ rolledBack: false });
    expect((error as Error).message).toMatch(/was interrupted: injected.*import:recover/);

    const [journal] = await findImportJournals();
    expect(journal).toMatchObject({ status: 'writing', owner_pid: process.pid });
    // Its owner (this process) is alive and its heartbeat fresh: a recovery leaves it alone.
    expect(await recoverUnfinishedImports()).toEqual([
      expect.objectContaining({ import_id: journal!.import_id, outcome: 'running' }),
    ]);
    expect(await findImportJournals()).toHaveLength(1);
    // The operator names it: rolled back.
    expect(await recoverUnfinishedImports({ importId: journal!.import_id })).toEqual([
      expect.objectContaining({ import_id: journal!.import_id, outcome: 'rolled_back', batches_undone: 3 }),
    ]);
    await expectRestored(before);
    expect(await recoverUnfinishedImports()).toEqual([]);
  });

  it('stops instead of leaving counters wrong when users changed imported items meanwhile', async () => {
    const fourth = nthBatch(4);
    injectFault((input) => isUndo(input) || fourth(input));
    const error = await runImport(richFile(existing.map((u) => u.login))).catch((e: unknown) => e);
    removeFault();
    expect(error).toMatchObject({ rolledBack: false });
    const [journal] = await findImportJournals();
    expect(journal).toMatchObject({ status: 'rolling_back' });

    // A recipient reads an imported notification before anyone recovers: its unread count moves by one.
    const user = existing[0]!;
    const unread = (await scanAll()).values();
    const read = [...unread].find(
      (item) => item.entity === 'notification' && item.user_id === user.id && !item.is_read,
    );
    expect(read).toBeDefined();
    await markNotificationsRead(
      user.id,
      [{ id: Number(read!.id), type: read!.type as 'mention' }],
      new Date().toISOString(),
      await getNotificationStats(user.id),
    );

    const [blocked] = await recoverUnfinishedImports();
    expect(blocked).toMatchObject({ import_id: journal!.import_id, outcome: 'blocked' });
    expect(blocked!.message).toContain(`NOTIF#${read!.id} NOTIF changed since it was imported (is_read)`);
    // Nothing of the blocked batch was undone, and no counter went wrong or negative.
    const stats = (await scanAll()).get(`${notificationStatsKey(user.id).pk} NOTIFSTATS`);
    expect(Number(stats?.unread)).toBeGreaterThanOrEqual(0);
    expect(await findImportJournals()).toHaveLength(1);
  });
});
