import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import type { ItemKey } from '../../db/partition.ts';
import { MAX_TRANSACTION_ACTIONS, putAction, type TransactAction } from '../../db/transact.ts';
import {
  type ImportPlan,
  type ImportUnit,
  keyId,
  type PlannedCount,
  type StoredItem,
} from './import-plan.ts';
import type { UndoStep } from './import-journal-item.ts';

/** One transaction of an import: its actions (a label each, for messages) and what undoes them. */
export interface PlannedBatch {
  readonly actions: TransactAction[];
  readonly labels: string[];
  readonly undo: UndoStep[];
}

export interface BatchLimits {
  /** Actions of the import's own; a journaled batch adds the journal check and its marker. */
  readonly actions: number;
  /** TransactWriteItems has a 4 MB cap; long messages (15 000 characters plus their HTML) can reach it first. */
  readonly bytes: number;
  /** The marker carrying the undo is one item (400 KB cap). */
  readonly undoBytes: number;
}

export const BATCH_LIMITS: BatchLimits = {
  actions: MAX_TRANSACTION_ACTIONS - 2,
  bytes: 3_500_000,
  undoBytes: 300_000,
};

/**
 * Packs the plan's units, in order, into transactions. Every unit travels whole, with its counts: a count on an
 * item put in the same transaction is added to that item's values (an item may appear once per transaction), a
 * count on anything else is one `counterUpdate` per item summed over the transaction's units. Every put carries
 * `attribute_not_exists(pk)`: the import never overwrites, so its rollback only ever deletes what it created.
 */
export function planBatches(plan: ImportPlan, limits: BatchLimits = BATCH_LIMITS): PlannedBatch[] {
  const units = [...plan.guards, ...plan.units];
  const putBy = new Map<string, number>();
  units.forEach((unit, index) => {
    for (const { item } of unit.puts) {
      const id = keyId(item);
      if (putBy.has(id) || plan.aggregateBase(id))
        throw new Error(`The import writes ${item.pk} ${item.sk} twice`);
      putBy.set(id, index);
    }
  });

  const written = new Set<string>();
  const batches: PlannedBatch[] = [];
  let open = new OpenBatch(plan, written);
  units.forEach((unit, index) => {
    for (const { key } of unit.counts) {
      if ((putBy.get(keyId(key)) ?? -1) > index)
        throw new Error(`${unit.label} counts into ${key.pk} ${key.sk} before it is written`);
    }
    if (!open.fits(unit, limits)) {
      batches.push(open.close());
      open = new OpenBatch(plan, written);
      if (!open.fits(unit, limits)) throw new Error(`${unit.label} does not fit one transaction`);
    }
    open.add(unit);
  });
  if (!open.isEmpty) batches.push(open.close());
  return batches;
}

interface OpenPut {
  readonly item: StoredItem;
  readonly label: string;
  readonly unchanged: Set<string>;
}

interface OpenAdd {
  readonly key: ItemKey;
  readonly label: string;
  readonly deltas: CounterDeltas;
  readonly condition: PlannedCount['condition'];
}

const size = (value: unknown): number =>
  Buffer.byteLength(
    JSON.stringify(value, (_key, v) => (v instanceof Set ? [...v] : v)),
    'utf8',
  );

/** The transaction being filled. `written` holds the keys earlier transactions created (shared across batches). */
class OpenBatch {
  readonly #puts = new Map<string, OpenPut>();
  readonly #adds = new Map<string, OpenAdd>();
  #bytes = 0;
  #undoBytes = 0;
  readonly #plan: ImportPlan;
  readonly #written: Set<string>;

  constructor(plan: ImportPlan, written: Set<string>) {
    this.#plan = plan;
    this.#written = written;
  }

  get isEmpty(): boolean {
    return this.#puts.size === 0 && this.#adds.size === 0;
  }

  /** Whether the unit's actions, bytes and undo still fit (counts merging into this batch's items cost nothing). */
  fits(unit: ImportUnit, limits: BatchLimits): boolean {
    const newKeys = new Set(unit.puts.map(({ item }) => keyId(item)));
    let actions = unit.puts.length;
    let bytes = 0;
    let undoBytes = 0;
    for (const { item, unchanged } of unit.puts) {
      bytes += size(item);
      undoBytes += 40 + item.pk.length + item.sk.length + 40 * (unchanged?.length ?? 0);
    }
    for (const count of unit.counts) {
      const id = keyId(count.key);
      const deltaBytes = size(count.deltas);
      bytes += deltaBytes;
      undoBytes += deltaBytes;
      if (newKeys.has(id) || this.#puts.has(id) || this.#adds.has(id)) continue;
      newKeys.add(id);
      actions += 1;
      undoBytes += 40 + count.key.pk.length + count.key.sk.length;
    }
    return (
      this.#puts.size + this.#adds.size + actions <= limits.actions &&
      this.#bytes + bytes <= limits.bytes &&
      this.#undoBytes + undoBytes <= limits.undoBytes
    );
  }

  add(unit: ImportUnit): void {
    for (const { item, unchanged } of unit.puts) {
      this.#puts.set(keyId(item), { item: { ...item }, label: unit.label, unchanged: new Set(unchanged) });
      this.#bytes += size(item);
      this.#undoBytes += 40 + item.pk.length + item.sk.length + 40 * (unchanged?.length ?? 0);
    }
    for (const count of unit.counts) this.#count(count, unit.label);
  }

  #count({ key, deltas, condition }: PlannedCount, label: string): void {
    const id = keyId(key);
    const deltaBytes = size(deltas);
    this.#bytes += deltaBytes;
    this.#undoBytes += deltaBytes;
    let put = this.#puts.get(id);
    const base = put || this.#written.has(id) ? undefined : this.#plan.aggregateBase(id);
    if (base) {
      // A declared aggregate's first count creates it; its counters must be back to these values to delete it.
      const counters = Object.keys(base).filter((name) => typeof base[name] === 'number');
      put = { item: base, label, unchanged: new Set(counters) };
      this.#puts.set(id, put);
      this.#undoBytes += 40 + key.pk.length + key.sk.length;
    }
    if (put) {
      for (const [name, amount] of Object.entries(deltas)) {
        put.item[name] = Number(put.item[name] ?? 0) + amount;
        put.unchanged.add(name);
      }
      return;
    }
    let add = this.#adds.get(id);
    if (!add) {
      add = { key, label, deltas: new CounterDeltas(), condition };
      this.#adds.set(id, add);
      this.#undoBytes += 40 + key.pk.length + key.sk.length;
    }
    if (JSON.stringify(add.condition) !== JSON.stringify(condition)) {
      throw new Error(`Counts on ${key.pk} ${key.sk} carry different conditions`);
    }
    add.deltas.addAll(deltas);
  }

  close(): PlannedBatch {
    const batch: PlannedBatch = { actions: [], labels: [], undo: [] };
    for (const [id, { item, label, unchanged }] of this.#puts) {
      batch.actions.push(putAction(item, { ifAbsent: true }));
      batch.labels.push(label);
      const values: Record<string, string | number | boolean | null> = {};
      for (const name of unchanged) {
        const value = item[name];
        if (value === undefined) continue;
        if (value !== null && !['string', 'number', 'boolean'].includes(typeof value))
          throw new Error(
            `${label}: "${name}" of ${item.pk} ${item.sk} is not a scalar a rollback can compare`,
          );
        values[name] = value as string | number | boolean | null;
      }
      batch.undo.push({
        op: 'delete',
        pk: item.pk,
        sk: item.sk,
        ...(Object.keys(values).length > 0 ? { unchanged: values } : {}),
      });
      this.#written.add(id);
    }
    for (const { key, label, deltas, condition } of this.#adds.values()) {
      const entries = deltas.entries();
      if (entries.length === 0) continue;
      batch.actions.push(counterUpdate(key, deltas, condition ? { condition } : {}));
      batch.labels.push(label);
      batch.undo.push({ op: 'subtract', pk: key.pk, sk: key.sk, deltas: Object.fromEntries(entries) });
    }
    return batch;
  }
}
