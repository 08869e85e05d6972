import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import type { ItemKey } from '../../db/partition.ts';
import {
  MAX_TRANSACTION_ACTIONS,
  type TransactAction,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';

/** The writes of one migrated row: its items (the map write included) and the aggregates it moves. */
export interface UnitWrite {
  readonly actions: readonly TransactAction[];
  readonly counters: readonly {
    readonly key: ItemKey;
    readonly deltas: Readonly<Record<string, number>>;
    readonly setOnCreate?: Readonly<Record<string, unknown>>;
  }[];
}

/** Another delivery of the same chunk wrote some of these rows first: the caller re-reads its maps and retries. */
export class ConcurrentChunkWrite extends Error {
  constructor() {
    super('another delivery of this chunk wrote some of its rows first');
    this.name = 'ConcurrentChunkWrite';
  }
}

/**
 * Writes rows in as few transactions as fit (≤ 100 actions each), the aggregates of a transaction's rows summed
 * per item: each row's items, map and counters commit together, so a row is never half written, never counted
 * twice. The units are written in the order given (parents before children that count on them); a unit whose
 * aggregate is an item another unit of the same transaction writes must be in a later call.
 */
export async function writeUnits(units: readonly UnitWrite[]): Promise<void> {
  let batch: UnitWrite[] = [];
  let counterKeys = new Set<string>();
  let actionCount = 0;
  for (const unit of units) {
    const newKeys = unit.counters.map(idOf).filter((id) => !counterKeys.has(id));
    if (
      batch.length > 0 &&
      actionCount + unit.actions.length + counterKeys.size + newKeys.length > MAX_TRANSACTION_ACTIONS
    ) {
      await commit(batch);
      batch = [];
      counterKeys = new Set();
      actionCount = 0;
    }
    batch.push(unit);
    actionCount += unit.actions.length;
    for (const counter of unit.counters) counterKeys.add(idOf(counter));
  }
  if (batch.length > 0) await commit(batch);
}

const idOf = (counter: { key: ItemKey }) => `${counter.key.pk}\u0000${counter.key.sk}`;

async function commit(units: readonly UnitWrite[]): Promise<void> {
  const merged = new Map<
    string,
    { key: ItemKey; deltas: CounterDeltas; setOnCreate?: Readonly<Record<string, unknown>> }
  >();
  for (const unit of units) {
    for (const counter of unit.counters) {
      const id = idOf(counter);
      const entry = merged.get(id) ?? {
        key: counter.key,
        deltas: new CounterDeltas(),
        setOnCreate: counter.setOnCreate,
      };
      entry.deltas.addAll(counter.deltas);
      merged.set(id, entry);
    }
  }
  const actions = [
    ...units.flatMap((unit) => unit.actions),
    ...[...merged.values()]
      .filter((entry) => !entry.deltas.isEmpty)
      .map((entry) =>
        counterUpdate(entry.key, entry.deltas, entry.setOnCreate ? { setOnCreate: entry.setOnCreate } : {}),
      ),
  ];
  const outcome = await transactWriteIfConditionsHold(actions);
  if (!outcome.written) throw new ConcurrentChunkWrite();
}
