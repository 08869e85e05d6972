import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handler } from '../../functions/workers/run-migration.ts';
import { migrationRunKey } from '../../shared/db/keys/migrations.ts';
import type { Caller } from '../../shared/domain/auth/index.ts';
import { CHUNK_SIZES } from '../../shared/domain/migrations/plan-phase.ts';
import { startMigration } from '../../shared/domain/migrations/start-migration.ts';
import type { MigrationMessage } from '../../shared/messages/index.ts';
import { drive, usePrivateMigrationQueue } from '../support/migration-driver.ts';
import { ALL_ITEMS, createAdministrator, dropTestSource, loadTestSource } from '../support/migrations.ts';
import { commandsSentBy, namesItem, type SentCommand } from '../support/sent-commands.ts';
import { sqsEvent } from '../support/sqs-event.ts';

/**
 * The migration chunk flows one way (issue 23): one `migrations` message goes worker entry → chunk runner → read
 * (the run and the chunk's marker) → map → write (its BatchWriteItems) → record, entering each module at most once,
 * and touches the run item in two round trips (one read at the start, the record at the end, which also moves the
 * phase when it counts the phase's last chunk). Every message is delivered through the worker's own handler, with
 * each DynamoDB command it sends recorded with its call stack (test/support/sent-commands.ts). More groups than one
 * chunk holds, so a phase has a chunk that is not its last as well as its last.
 */
const SIZE = { groups: CHUNK_SIZES.groups + 5, members: 20, activities: 60, seed: 41, idBase: 9_000_000 };
const OPTIONS = {
  migrate_avatars: false,
  migrate_cover_images: false,
  preserve_dates: true,
  skip_existing: true,
};
const ROOT = new URL('../../', import.meta.url).pathname;
const RUNNER = 'shared/domain/migrations/process-migration-message.ts';

let caller: Caller;
let queue: Awaited<ReturnType<typeof usePrivateMigrationQueue>>;
const chunks: { message: Extract<MigrationMessage, { kind: 'chunk' }>; sent: SentCommand[] }[] = [];

beforeAll(async () => {
  ({ caller } = await createAdministrator());
  queue = await usePrivateMigrationQueue(inject('stack'));
  await loadTestSource(SIZE);
  await startMigration(caller, 'buddypress', { items: ALL_ITEMS, options: OPTIONS });
  const { run } = await drive(queue, {
    around: async (message) => {
      const sent = await commandsSentBy(
        async () => {
          const answer = await handler(sqsEvent('migrations', [JSON.stringify(message)]));
          expect(answer.batchItemFailures).toEqual([]);
        },
        { stacks: true },
      );
      if (message.kind === 'chunk') chunks.push({ message, sent });
    },
  });
  expect(run?.status).toBe('completed');
}, 240_000);
afterAll(() => dropTestSource());

/**
 * The project modules a command's call stack passes through, outermost first, as far as its async frames reach
 * (a promise shared through a cache, such as the user resolver's, cuts them short). Consecutive frames of one
 * module are one visit.
 */
function modulePath(command: SentCommand): string[] {
  const files = (command.stack ?? '')
    .split('\n')
    .map((line) => /\(?(\/[^():]+\.ts):\d+:\d+\)?$/.exec(line.trim())?.[1])
    .filter((file): file is string => file?.startsWith(ROOT) === true)
    .map((file) => file.slice(ROOT.length))
    .filter((file) => file.startsWith('shared/') || file.startsWith('functions/'))
    .reverse();
  return files.filter((file, i) => file !== files[i - 1]);
}

const repeated = (path: readonly string[]) => path.filter((module, i) => path.indexOf(module) !== i);

describe('one migration chunk message', () => {
  it('delivered every chunk, a phase with two chunks among them', () => {
    expect(chunks.map(({ message }) => message.phase)).toEqual(['groups', 'groups', 'members', 'activities']);
  });

  it('touches the run item in two round trips: the read with its marker, the record at the end', () => {
    for (const { message, sent } of chunks) {
      const runCalls = sent.filter((command) => namesItem(command, migrationRunKey('buddypress')));
      expect(
        runCalls.map((command) => command.name),
        `${message.phase} chunk ${message.chunk}`,
      ).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
      expect(sent.at(-1)).toBe(runCalls[1]);
    }
  });

  it('reaches each of its BatchWriteItems through each module at most once, from the worker entry', () => {
    for (const { message, sent } of chunks) {
      for (const command of sent) expect(repeated(modulePath(command)), command.name).toEqual([]);
      // The chunk's own targets (a group's space is created behind its guards while mapping, so groups have none
      // here): written by its write stage, straight from the runner.
      if (message.phase === 'groups') continue;
      const own = sent
        .filter((command) => command.name === 'BatchWriteItemCommand')
        .map(modulePath)
        .filter((path) => path.includes(RUNNER));
      expect(own.length, `${message.phase} chunk ${message.chunk}`).toBeGreaterThan(0);
      for (const path of own)
        expect(path.slice(path.indexOf(RUNNER))).toEqual([
          RUNNER,
          'shared/domain/migrations/write-chunk.ts',
          'shared/db/batch-write.ts',
          'shared/db/client.ts',
        ]);
    }
    // The first command's stack has not yet crossed an await: it shows the whole way in from the worker's entry.
    expect(modulePath(chunks[0]!.sent[0]!).slice(0, 4)).toEqual([
      'shared/worker/sqs-handler.ts',
      'functions/workers/run-migration.ts',
      RUNNER,
      'shared/domain/migrations/run-repository.ts',
    ]);
  });

  it('goes through the runner’s stages one way: read → map → write → record, none entered twice', () => {
    for (const { message, sent } of chunks) {
      const stages = sent
        .map(modulePath)
        .filter((path) => path.includes(RUNNER))
        .map((path) => path[path.indexOf(RUNNER) + 1] ?? RUNNER);
      const visits = stages.filter((stage, i) => stage !== stages[i - 1]);
      const label = `${message.phase} chunk ${message.chunk}: ${visits.join(' → ')}`;
      expect(repeated(visits), label).toEqual([]);
      expect(visits[0], label).toBe('shared/domain/migrations/run-repository.ts');
      if (message.phase !== 'groups')
        expect(visits.at(-2), label).toBe('shared/domain/migrations/write-chunk.ts');
      expect(visits.at(-1), label).toBe('shared/domain/migrations/record-chunk.ts');
    }
  });
});
