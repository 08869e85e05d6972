import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';
import {
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  type RunningEmulator,
} from '../../infra/local/emulators.ts';
import { resetEnvCache } from '../../shared/config/env.ts';
import { resetDbClient, tableName } from '../../shared/db/client.ts';
import { importBatches } from '../../shared/db/keys/imports.ts';
import {
  notificationStatsKey,
  recipientNotifications,
  recipientNotificationsOfType,
} from '../../shared/db/keys/notifications.ts';
import type { Partition } from '../../shared/db/partition.ts';
import { getItem, queryAll } from '../../shared/db/reads.ts';
import type { ImportIdMap } from '../../shared/domain/import/build-import-plan.ts';
import { findImportJournals } from '../../shared/domain/import/import-journal-repository.ts';
import type { ImportRecovery } from '../../shared/domain/import/recover-imports.ts';
import { markAllNotificationsRead } from '../../shared/domain/notifications/mark-all-notifications-read.ts';
import { NotificationStatsItemSchema } from '../../shared/domain/notifications/notification-item.ts';
import { createUser } from '../../shared/domain/users/create-user.ts';
import { NOTIFICATION_TYPES } from '../../shared/vocabulary/notifications.ts';

/**
 * Issue 7, fault 3: an import must be all or nothing even across a crash. DynamoDB Local runs here on its own data
 * folder (persistent), the import runs as the operator runs it (the CLI, a separate process), and the JVM is
 * killed with SIGKILL once some of the import's transactions have committed. After a restart on the same folder
 * the half import is consistent (every committed transaction carried its counts), `import:recover` rolls it back
 * (and is idempotent), and a re-run imports everything exactly once: counts exact, nothing duplicated or orphaned,
 * nothing negative after mark-all-read. Then the importing process itself is killed, and the next import rolls
 * its leftovers back before importing.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const USERS = 20;
const NOTIFICATIONS = 3000;

interface Run {
  readonly child: ChildProcess;
  readonly done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** The operator CLI in its own Node process (no wrapper process, so its pid is the importer's). */
function cli(...args: string[]): Run {
  const child = spawn(NODE, ['--import', 'tsx', 'functions/cli/admin.ts', ...args], {
    cwd: ROOT,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((finish) =>
    child.once('exit', (code) => finish({ code, stdout, stderr })),
  );
  return { child, done };
}

async function cliJson<T>(...args: string[]): Promise<{ output: T; stderr: string }> {
  const result = await cli(...args).done;
  expect(result.code, result.stderr).toBe(0);
  return { output: JSON.parse(result.stdout) as T, stderr: result.stderr };
}

/** The pid of the JVM serving `endpoint` (found in /proc by its `-port`; killed by that id only). */
function jvmPid(endpoint: string): number {
  const port = new URL(endpoint).port;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const portAt = args.indexOf('-port');
    if (args.some((arg) => arg.includes('DynamoDBLocal')) && portAt !== -1 && args[portAt + 1] === port)
      return Number(entry);
  }
  throw new Error(`No DynamoDB Local serves ${endpoint}`);
}

async function pointAt(emulator: RunningEmulator): Promise<void> {
  process.env.DYNAMODB_ENDPOINT = emulator.endpoint;
  resetEnvCache();
  resetDbClient();
}

/** Every item of a partition, read with a schema that keeps only what the checks need. */
async function readAll<T>(partition: Partition, schema: v.GenericSchema<unknown, T>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of queryAll(partition, schema)) items.push(...page);
  return items;
}

const count = async (partition: Partition): Promise<number> => (await readAll(partition, v.unknown())).length;

const notificationIds = async (userId: number): Promise<number[]> =>
  (await readAll(recipientNotifications(userId), v.object({ id: v.number() }))).map((item) => item.id);

const stats = async (userId: number) =>
  getItem(notificationStatsKey(userId), NotificationStatsItemSchema, { consistent: true });

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/**
 * Kills `victim` once the running import has committed `threshold(planned)` of its planned transactions (watching
 * their markers); answers the import id.
 */
async function killAfterBatches(threshold: (planned: number) => number, victim: () => void): Promise<string> {
  const journal = await waitFor('the import journal', async () => (await findImportJournals())[0]);
  const batches = threshold(journal.batches);
  await waitFor(`${batches} committed batches`, async () =>
    (await count(importBatches(journal.import_id))) >= batches ? true : undefined,
  );
  victim();
  return journal.import_id;
}

interface Expected {
  total: number;
  unread: number;
  byType: Record<string, { total: number; unread: number }>;
}

function expectedCounts(
  notifications: readonly { user: string; type: string; is_read: boolean }[],
): Map<string, Expected> {
  const byUser = new Map<string, Expected>();
  for (const { user, type, is_read } of notifications) {
    const entry = byUser.get(user) ?? { total: 0, unread: 0, byType: {} };
    byUser.set(user, entry);
    const typed = entry.byType[type] ?? { total: 0, unread: 0 };
    entry.byType[type] = typed;
    entry.total += 1;
    typed.total += 1;
    if (!is_read) {
      entry.unread += 1;
      typed.unread += 1;
    }
  }
  return byUser;
}

describe('an import killed mid-way', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'import-crash-'));
  const files = mkdtempSync(join(tmpdir(), 'import-crash-files-'));
  let emulator: RunningEmulator;
  const users: { id: number; login: string }[] = [];
  const saved = { TABLE_NAME: process.env.TABLE_NAME, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT };

  const notificationsFile = (name: string, size: number, salt: number) => {
    const notifications = Array.from({ length: size }, (_, i) => ({
      user: users[(i * 7 + salt + Math.floor(i / 13)) % USERS]!.login,
      type: NOTIFICATION_TYPES[(i * 5 + salt) % NOTIFICATION_TYPES.length]!,
      actor: users[(i + 1) % USERS]!.login,
      title: `Notification ${i}`,
      message: `Message ${i} of ${name}`,
      is_read: (i * 3 + salt) % 5 < 2,
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    }));
    const path = join(files, `${name}.json`);
    writeFileSync(path, JSON.stringify({ notifications }));
    return { path, notifications };
  };

  beforeAll(async () => {
    emulator = await startDynamoDbLocal({ port: await freePort(), dataDir });
    process.env.TABLE_NAME = `import-crash-${process.pid}`;
    await pointAt(emulator);
    const client = new DynamoDBClient({
      endpoint: emulator.endpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    });
    const { createTableInput } = await import('../../shared/db/table-definition.ts');
    await client.send(new CreateTableCommand(createTableInput(tableName())));
    client.destroy();
    for (let i = 0; i < USERS; i++) {
      const created = await createUser({ login: `crash_${i}`, email: `crash_${i}@example.com` });
      users.push({ id: created.id, login: created.username });
    }
  }, 120_000);

  afterAll(async () => {
    Object.assign(process.env, saved);
    resetEnvCache();
    resetDbClient();
    await emulator?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  it('is rolled back after the database is killed, and a re-run imports it exactly once', async () => {
    const { path, notifications } = notificationsFile('first', NOTIFICATIONS, 0);
    const expected = expectedCounts(notifications);

    const importing = cli('import', path);
    const started = performance.now();
    const importId = await killAfterBatches(
      (planned) => Math.floor(planned / 3),
      () => process.kill(jvmPid(emulator.endpoint), 'SIGKILL'),
    );
    const crashed = await importing.done;
    expect(crashed.code).toBe(1);
    expect(crashed.stdout).toBe('');
    expect(crashed.stderr).toContain(`Import ${importId} was interrupted`);

    emulator = await startDynamoDbLocal({ port: await freePort(), dataDir });
    await pointAt(emulator);
    const [journal] = await findImportJournals();
    expect(journal).toMatchObject({
      import_id: importId,
      status: 'writing',
      items: { notifications: NOTIFICATIONS },
    });
    const committed = await count(importBatches(importId));
    expect(committed).toBeGreaterThanOrEqual(Math.floor(journal!.batches / 3));
    expect(committed).toBeLessThan(journal!.batches);
    // The half import is consistent: every committed transaction carried the counts of what it made visible.
    let visible = 0;
    for (const user of users) {
      const ids = await notificationIds(user.id);
      visible += ids.length;
      expect((await stats(user.id))?.total ?? 0, user.login).toBe(ids.length);
    }
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(NOTIFICATIONS);

    const recoverStarted = performance.now();
    const { output: recovered } = await cliJson<{ imports: ImportRecovery[] }>('import:recover');
    const recoverWall = performance.now() - recoverStarted;
    expect(recovered.imports).toEqual([
      expect.objectContaining({ import_id: importId, outcome: 'rolled_back', batches_undone: committed }),
    ]);
    expect((await cliJson<{ imports: ImportRecovery[] }>('import:recover')).output).toEqual({ imports: [] });
    for (const user of users) {
      expect(await notificationIds(user.id)).toEqual([]);
      // The users had no notifications: the import created their stats item, and the rollback removed it.
      expect((await stats(user.id)) ?? { total: 0, unread: 0 }).toMatchObject({ total: 0, unread: 0 });
    }
    expect(await count(importBatches(importId))).toBe(0);
    expect(await findImportJournals()).toEqual([]);

    const importStarted = performance.now();
    const { output: map, stderr } = await cliJson<ImportIdMap>('import', path);
    const importWall = performance.now() - importStarted;
    expect(stderr).toBe('');
    expect(map.notifications).toHaveLength(NOTIFICATIONS);
    const imported = new Set(map.notifications);
    for (const user of users) {
      const want = expected.get(user.login)!;
      const ids = await notificationIds(user.id);
      expect(ids, user.login).toHaveLength(want.total);
      expect(
        ids.every((id) => imported.has(id)),
        user.login,
      ).toBe(true);
      const got = (await stats(user.id))!;
      expect({ total: got.total, unread: got.unread }, user.login).toEqual({
        total: want.total,
        unread: want.unread,
      });
      for (const [type, counts] of Object.entries(want.byType)) {
        expect(got.byType[type], `${user.login} ${type}`).toEqual(counts);
        expect(await count(recipientNotificationsOfType(user.id, type)), `${user.login} ${type} copies`).toBe(
          counts.total,
        );
      }
    }
    expect(await findImportJournals()).toEqual([]);

    // Mark-all-read flips 12 notifications per transaction: a quarter of the recipients keeps the test quick.
    const markStarted = performance.now();
    await Promise.all(
      users.slice(0, USERS / 4).map(async (user) => {
        const caller = {
          id: user.id,
          username: user.login,
          hostRole: 'member',
          communityRoles: [],
          status: 'active',
        } as const;
        const marked = await markAllNotificationsRead(caller);
        expect(marked.data.marked_count, user.login).toBe(expected.get(user.login)!.unread);
        const after = (await stats(user.id))!;
        expect(after.total).toBe(expected.get(user.login)!.total);
        expect(after.unread).toBe(0);
        for (const counts of Object.values(after.byType)) expect(counts.unread).toBe(0);
      }),
    );
    const markWall = performance.now() - markStarted;
    expect((await cliJson<{ imports: ImportRecovery[] }>('import:recover')).output).toEqual({ imports: [] });

    process.stdout.write(
      `import crash: ${committed} of ${journal!.batches} batches committed when DynamoDB Local was killed ` +
        `(${visible} notifications visible, ${Math.round(recoverStarted - started)} ms into the test); ` +
        `rollback ${recovered.imports[0]!.duration_ms} ms, import:recover ${Math.round(recoverWall)} ms wall; ` +
        `re-import ${Math.round(importWall)} ms wall, mark-all-read of ${USERS / 4} users ${Math.round(markWall)} ms\n`,
    );
  }, 300_000);

  it('is rolled back by the next import when the importing process is killed', async () => {
    const before = new Map<number, { total: number; unread: number; readWatermark?: string | undefined }>();
    for (const user of users) before.set(user.id, (await stats(user.id)) ?? { total: 0, unread: 0 });
    const { path, notifications } = notificationsFile('second', 800, 3);
    // History a recipient has since marked read in bulk (the first test's mark-all) arrives read.
    const watermarkOf = new Map(users.map((user) => [user.login, before.get(user.id)?.readWatermark]));
    const expected = expectedCounts(
      notifications.map((n) => {
        const watermark = watermarkOf.get(n.user);
        return { ...n, is_read: n.is_read || (watermark !== undefined && n.created_at <= watermark) };
      }),
    );

    const importing = cli('import', path);
    const importId = await killAfterBatches(
      () => 3,
      () => importing.child.kill('SIGKILL'),
    );
    await importing.done;
    expect((await findImportJournals())[0]).toMatchObject({
      import_id: importId,
      owner_pid: importing.child.pid,
    });

    const { output: map, stderr } = await cliJson<ImportIdMap>('import', path);
    expect(stderr).toMatch(new RegExp(`Rolled back unfinished import ${importId} .*: \\d+ batches undone`));
    expect(map.notifications).toHaveLength(800);
    for (const user of users) {
      const want = expected.get(user.login)!;
      const got = (await stats(user.id))!;
      expect(got.total, user.login).toBe(before.get(user.id)!.total + want.total);
      expect(got.unread, user.login).toBe(before.get(user.id)!.unread + want.unread);
      expect(await notificationIds(user.id), user.login).toHaveLength(got.total);
    }
    expect(await findImportJournals()).toEqual([]);
  }, 300_000);
});
