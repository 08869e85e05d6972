import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import type { ItemKey } from '../../db/partition.ts';
import type { TransactAction } from '../../db/transact.ts';

type StoredItem = Record<string, unknown> & ItemKey;

/**
 * What one chunk writes, gathered before anything is written. Invariant: everything in `puts` and `updates` is
 * idempotent (deterministic keys, ids and content), so a redelivered or retried chunk may write it again; every
 * counter is an aggregate another chunk also moves, so it is summed per item here and moved once, in the
 * transactions that create the chunk's markers (run-repository.ts `recordChunk`).
 */
export class ChunkWrites {
  readonly #puts = new Map<string, StoredItem>();
  readonly updates: TransactAction[] = [];
  readonly #counters = new Map<
    string,
    { key: ItemKey; deltas: CounterDeltas; setOnCreate?: Readonly<Record<string, unknown>> }
  >();

  /** A plain put; a later put of the same key replaces an earlier one (a batch may name a key once). */
  put(item: StoredItem): void {
    this.#puts.set(idOf(item), item);
  }

  /** An idempotent in-place update (SET of values the chunk determines), for items an earlier run created. */
  update(action: TransactAction): void {
    this.updates.push(action);
  }

  count(
    key: ItemKey,
    deltas: Readonly<Record<string, number>>,
    setOnCreate?: Readonly<Record<string, unknown>>,
  ) {
    const id = idOf(key);
    const entry = this.#counters.get(id) ?? {
      key,
      deltas: new CounterDeltas(),
      ...(setOnCreate ? { setOnCreate } : {}),
    };
    entry.deltas.addAll(deltas);
    this.#counters.set(id, entry);
  }

  get puts(): StoredItem[] {
    return [...this.#puts.values()];
  }

  /** One update per counted item, in key order (so every delivery cuts them into the same marker parts). */
  counterActions(): TransactAction[] {
    return [...this.#counters]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .filter(([, entry]) => !entry.deltas.isEmpty)
      .map(([, entry]) =>
        counterUpdate(entry.key, entry.deltas, entry.setOnCreate ? { setOnCreate: entry.setOnCreate } : {}),
      );
  }

  clear(): void {
    this.#puts.clear();
    this.updates.length = 0;
    this.#counters.clear();
  }
}

const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;
