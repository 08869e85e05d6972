import { type ItemKey, itemKeyId } from '../../db/partition.ts';
import { migrationFeedMoveKey } from '../../db/keys/migrations.ts';
import { putAction, type TransactAction } from '../../db/transact.ts';
import { feedCommentsAddedAction } from '../feeds/index.ts';
import type { MigrationCounted, MigrationItem } from '../../vocabulary/migrations.ts';
import { LedgerRecord } from './ledger.ts';
import { errorBytesLeft, type MigrationError, packChunkErrors } from './run-errors.ts';
import { chunkKind, counterName, type Outcome, type RunItem } from './run-item.ts';
import type { ChunkRecord } from './record-chunk.ts';
import { Tally } from './tally.ts';

export type StoredItem = Record<string, unknown> & ItemKey;

/**
 * What mapping a chunk's rows answers: a list of values, one per fact, in the order they were found. Each stage
 * (resolvers, mappers) returns its own list; `planChunk` folds them into the chunk's writes and record. Nothing is
 * written or counted while the list is built.
 */
export type ChunkEntry =
  /** A row counted with an outcome and nothing more (skipped, or migrated in place). */
  | { readonly kind: 'row'; readonly item: MigrationCounted; readonly outcome: Outcome }
  /** A row that cannot be migrated: counted failed, and reported. */
  | {
      readonly kind: 'failed';
      readonly item: MigrationCounted;
      readonly sourceId: number;
      readonly error: string;
    }
  /** A primary row migrated for the first time: counted, and in the ledger once the chunk is counted. */
  | {
      readonly kind: 'created';
      readonly item: Exclude<MigrationCounted, 'comments'>;
      readonly sourceId: number;
    }
  /** A comment migrated for the first time, in the ledger with its root. */
  | { readonly kind: 'created_comment'; readonly rootId: number; readonly commentId: number }
  /** Reported with the chunk without counting its row (an image not copied). */
  | { readonly kind: 'warning'; readonly error: MigrationError }
  /** A plain idempotent put (id-space ids, deterministic content). */
  | { readonly kind: 'put'; readonly item: StoredItem }
  /** An in-place SET of an earlier run's target, conditioned on it still existing. */
  | { readonly kind: 'update'; readonly action: TransactAction }
  /** An aggregate another writer also moves: summed into the run's tally (moved once per run, tally.ts). */
  | {
      readonly kind: 'counter';
      readonly key: ItemKey;
      readonly deltas: Readonly<Record<string, number>>;
      readonly identity?: Readonly<Record<string, unknown>>;
    }
  /** New comments under an earlier run's feed: its `comments_count` moves with a marker of its own. */
  | { readonly kind: 'feed_comments'; readonly postId: number; readonly added: number };

export const entry = {
  row: (item: MigrationCounted, outcome: Outcome): ChunkEntry => ({ kind: 'row', item, outcome }),
  failed: (item: MigrationCounted, sourceId: number, error: string): ChunkEntry => ({
    kind: 'failed',
    item,
    sourceId,
    error,
  }),
  created: (item: Exclude<MigrationCounted, 'comments'>, sourceId: number): ChunkEntry => ({
    kind: 'created',
    item,
    sourceId,
  }),
  createdComment: (rootId: number, commentId: number): ChunkEntry => ({
    kind: 'created_comment',
    rootId,
    commentId,
  }),
  warning: (error: MigrationError): ChunkEntry => ({ kind: 'warning', error }),
  put: (item: StoredItem): ChunkEntry => ({ kind: 'put', item }),
  update: (action: TransactAction): ChunkEntry => ({ kind: 'update', action }),
  counter: (
    key: ItemKey,
    deltas: Readonly<Record<string, number>>,
    identity?: Readonly<Record<string, unknown>>,
  ): ChunkEntry => ({ kind: 'counter', key, deltas, ...(identity ? { identity } : {}) }),
  feedComments: (postId: number, added: number): ChunkEntry => ({ kind: 'feed_comments', postId, added }),
};

export interface FeedCommentsMove {
  readonly marker: TransactAction;
  readonly move: TransactAction;
}

/** The writes of a chunk, all decided before the first one is sent. */
export interface ChunkWrites {
  /** Each key once: a later put of a key replaces an earlier one (a batch may name a key once). */
  readonly puts: readonly StoredItem[];
  readonly updates: readonly TransactAction[];
  /**
   * An earlier run's feed gaining this chunk's comments: its `comments_count` move, with the marker that makes the
   * chunk move it once (write-chunk.ts sends many such pairs per transaction).
   */
  readonly feedComments: readonly FeedCommentsMove[];
  /** The aggregate moves, summed per counter item. */
  readonly tally: Tally;
}

export function writesOf(
  entries: readonly ChunkEntry[],
  chunk: { readonly runId: string; readonly chunkNo: number },
): ChunkWrites {
  const puts = new Map<string, StoredItem>();
  const updates: TransactAction[] = [];
  const feedComments = new Map<number, number>();
  const tally = new Tally();
  for (const e of entries) {
    if (e.kind === 'put') puts.set(itemKeyId(e.item), e.item);
    else if (e.kind === 'update') updates.push(e.action);
    else if (e.kind === 'counter') tally.add(e.key, e.deltas, e.identity);
    else if (e.kind === 'feed_comments')
      feedComments.set(e.postId, (feedComments.get(e.postId) ?? 0) + e.added);
  }
  const moves = [...feedComments]
    .sort(([a], [b]) => a - b)
    .map(([postId, added]) => ({
      marker: putAction(
        {
          ...migrationFeedMoveKey(chunk.runId, chunk.chunkNo, postId),
          entity: 'migration_feed_move',
          run_id: chunk.runId,
        },
        { ifAbsent: true },
      ),
      move: feedCommentsAddedAction(postId, added),
    }));
  return { puts: [...puts.values()], updates, feedComments: moves, tally };
}

/** The chunk as mapped, planned as one value: what to write, then what to record once it is written. */
export interface ChunkPlan {
  readonly writes: ChunkWrites;
  readonly record: ChunkRecord;
}

/**
 * Folds the mapped entries into the chunk's plan: its writes, and its record (the outcome counters, the errors
 * packed to fit the run's room, the tally shards and the ledger entries), which recordChunk stores once.
 */
export function planChunk(
  run: RunItem,
  chunk: { readonly phase: MigrationItem; readonly chunkNo: number },
  entries: readonly ChunkEntry[],
): ChunkPlan {
  const writes = writesOf(entries, { runId: run.run_id, chunkNo: chunk.chunkNo });
  const counters: Record<string, number> = {};
  const errors: MigrationError[] = [];
  const ledger = new LedgerRecord();
  const count = (item: MigrationCounted, outcome: Outcome) => {
    const name = counterName(item, outcome);
    counters[name] = (counters[name] ?? 0) + 1;
  };
  for (const e of entries) {
    if (e.kind === 'row') count(e.item, e.outcome);
    else if (e.kind === 'failed') {
      count(e.item, 'failed');
      errors.push({ item: e.item, id: String(e.sourceId), error: e.error });
    } else if (e.kind === 'created') {
      count(e.item, 'migrated');
      ledger.addRow(e.sourceId);
    } else if (e.kind === 'created_comment') {
      count('comments', 'migrated');
      ledger.addComment(e.rootId, e.commentId);
    } else if (e.kind === 'warning') errors.push(e.error);
  }
  const kind = chunkKind(chunk.phase);
  return {
    writes,
    record: {
      phase: chunk.phase,
      chunkNo: chunk.chunkNo,
      counters,
      errors: packChunkErrors(errors, errorBytesLeft(run)),
      tallies: writes.tally.shardItems(run.run_id, kind, chunk.chunkNo),
      ledger: ledger.entries(run.source, kind, run.run_id, chunk.chunkNo),
    },
  };
}
