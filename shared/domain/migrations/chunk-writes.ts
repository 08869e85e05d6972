import type { ItemKey } from '../../db/partition.ts';
import type { TransactAction } from '../../db/transact.ts';
import { Tally } from './tally.ts';

type StoredItem = Record<string, unknown> & ItemKey;

/**
 * What one chunk writes, gathered before anything is written. Invariants: everything in `puts` is idempotent
 * (id-space ids, deterministic content), so a redelivered or retried chunk may write it again; `updates` are
 * in-place SETs of an earlier run's targets, conditioned on the target still existing; every aggregate another
 * writer also moves goes to the `tally` (moved once per run, see tally.ts), except an earlier run's feed gaining
 * comments, whose `comments_count` moves with its own marker (`feedCommentMoves`).
 */
export class ChunkWrites {
  readonly #puts = new Map<string, StoredItem>();
  readonly updates: TransactAction[] = [];
  readonly tally = new Tally();
  /** Feed id (created by an earlier run) → comments this chunk adds under it. */
  readonly feedCommentMoves = new Map<number, number>();

  /** A plain put; a later put of the same key replaces an earlier one (a batch may name a key once). */
  put(item: StoredItem): void {
    this.#puts.set(idOf(item), item);
  }

  /** An idempotent in-place update of an item an earlier run created. */
  update(action: TransactAction): void {
    this.updates.push(action);
  }

  count(
    key: ItemKey,
    deltas: Readonly<Record<string, number>>,
    identity?: Readonly<Record<string, unknown>>,
  ): void {
    this.tally.add(key, deltas, identity);
  }

  addCommentsTo(postId: number, comments: number): void {
    this.feedCommentMoves.set(postId, (this.feedCommentMoves.get(postId) ?? 0) + comments);
  }

  get puts(): StoredItem[] {
    return [...this.#puts.values()];
  }
}

const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;
