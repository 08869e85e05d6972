import { gunzipSync, gzipSync } from 'node:zlib';
import * as v from 'valibot';
import {
  type MigrationLedgerKind,
  migrationLedgerBlock,
  migrationLedgerKey,
} from '../../db/keys/migrations.ts';
import type { ItemKey } from '../../db/partition.ts';
import { queryAll } from '../../db/reads.ts';

/** Source ids per ledger block: a chunk's rows (ids close together) fall in one or two blocks. */
export const LEDGER_BLOCK = 16_384;
/** A chunk's id range spans at most this many blocks (planning cuts wider ranges), so its entries fit its record. */
export const LEDGER_BLOCKS_PER_CHUNK = 32;

const blockOf = (sourceId: number) => Math.floor(sourceId / LEDGER_BLOCK);

const EntrySchema = v.object({
  run_id: v.string(),
  rows: v.instance(Uint8Array),
  comments: v.optional(v.instance(Uint8Array)),
});

/** Sorted ids as gaps, JSON, gzipped: a chunk's thousands of close ids take a few kilobytes. */
function packIds(ids: Iterable<number>): Uint8Array {
  let previous = 0;
  const gaps = [...new Set(ids)]
    .sort((a, b) => a - b)
    .map((id) => {
      const gap = id - previous;
      previous = id;
      return gap;
    });
  return gzipSync(JSON.stringify(gaps));
}

function unpackIds(packed: Uint8Array): number[] {
  const gaps: unknown = JSON.parse(gunzipSync(packed).toString('utf8'));
  if (!Array.isArray(gaps) || !gaps.every((gap) => Number.isInteger(gap)))
    throw new Error('a migration ledger entry is malformed');
  let id = 0;
  return (gaps as number[]).map((gap) => {
    id += gap;
    return id;
  });
}

/**
 * What one chunk migrated for the first time: its primary rows (groups, membership rows, root activities) and, for
 * activities, the comments under each root. Stored with the chunk's count (`entries`, put in the transaction that
 * counts it), so a row is in the ledger exactly when a run counted it.
 */
export class LedgerRecord {
  readonly #rows = new Map<number, Set<number>>();
  readonly #comments = new Map<number, Set<number>>();

  addRow(sourceId: number): void {
    const block = blockOf(sourceId);
    this.#rows.set(block, (this.#rows.get(block) ?? new Set()).add(sourceId));
  }

  /** A comment goes with its root's block: comments are always looked up by their root. */
  addComment(rootId: number, commentId: number): void {
    const block = blockOf(rootId);
    this.#comments.set(block, (this.#comments.get(block) ?? new Set()).add(commentId));
  }

  entries(source: string, kind: MigrationLedgerKind, runId: string, chunkNo: number) {
    const blocks = new Set([...this.#rows.keys(), ...this.#comments.keys()]);
    return [...blocks].map((block) => {
      const comments = this.#comments.get(block);
      return {
        ...migrationLedgerKey(source, kind, block, runId, chunkNo),
        entity: 'migration_ledger',
        run_id: runId,
        rows: packIds(this.#rows.get(block) ?? []),
        ...(comments ? { comments: packIds(comments) } : {}),
      } satisfies Record<string, unknown> & ItemKey;
    });
  }
}

export interface MigratedRows {
  readonly rows: ReadonlySet<number>;
  /** The migrated comments of those rows (activities). */
  readonly comments: ReadonlySet<number>;
}

/**
 * Which of these primary rows (and which comments under them) a run has migrated and counted: what makes
 * `skip_existing` and "never duplicated" hold across runs. A row another run counted is that run's (its target
 * exists at its id-space id, unless the platform deleted it since); a row no run counted is new to this one.
 * `exceptRun` leaves that run's entries out (a chunk asks about earlier runs only). One strongly consistent Query
 * per block of the ids asked.
 */
export async function migratedRows(
  source: string,
  kind: MigrationLedgerKind,
  sourceIds: readonly number[],
  options: { exceptRun?: string } = {},
): Promise<MigratedRows> {
  const rows = new Set<number>();
  const comments = new Set<number>();
  await Promise.all(
    [...new Set(sourceIds.map(blockOf))].map(async (block) => {
      for await (const entries of queryAll(migrationLedgerBlock(source, kind, block), EntrySchema, {
        consistent: true,
      }))
        for (const entry of entries) {
          if (entry.run_id === options.exceptRun) continue;
          for (const id of unpackIds(entry.rows)) rows.add(id);
          if (entry.comments) for (const id of unpackIds(entry.comments)) comments.add(id);
        }
    }),
  );
  return { rows, comments };
}
