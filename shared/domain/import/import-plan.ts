import type { ItemKey } from '../../db/partition.ts';

/** An item as written: its table key plus attributes (what the domains' `stored*` builders return). */
export type StoredItem = Record<string, unknown> & ItemKey;

/** A new item of the import. */
export interface PlannedPut {
  readonly item: StoredItem;
  /**
   * Attributes a rollback requires to be unchanged before it deletes the item: what the item's counts were
   * computed from (a notification's `is_read`, a feed's `status`), counters other items move, or whom a guard
   * belongs to. A user may act on imported items before a crashed import is rolled back; deleting a changed item
   * while subtracting the counts it had when imported would leave counters wrong, so the rollback stops instead.
   */
  readonly unchanged?: readonly string[];
}

/** Counter deltas on one aggregate item (an existing shared one, an item of this import, or a declared one). */
export interface PlannedCount {
  readonly key: ItemKey;
  readonly deltas: Readonly<Record<string, number>>;
  /**
   * A condition the counted item must meet when the counts are added (ANDed with the counters' floors), e.g. that a
   * recipient's bulk-action watermarks did not move since the import read them. Every count on one key carries the
   * same condition.
   */
  readonly condition?: {
    expression: string;
    names?: Record<string, string>;
    values?: Record<string, unknown>;
  };
}

/**
 * What one item of the file writes: its new items and the counter deltas they cause. A unit is never split: it is
 * written in one transaction, so at every committed point the counters match the items that are visible.
 */
export interface ImportUnit {
  readonly label: string;
  readonly puts: readonly PlannedPut[];
  readonly counts: readonly PlannedCount[];
}

export const keyId = (key: ItemKey): string => `${key.pk}\u0000${key.sk}`;

/**
 * Everything an import writes, collected before the first write, in writing order: uniqueness guards first (so a
 * login or slug taken by a concurrent create aborts the import before any entity is written), then the sections'
 * units in file order. A count may name an item put by an earlier unit (a post's `comments_count`), a shared item
 * that already exists (topic totals, an existing user's stats), or an aggregate declared here.
 */
export class ImportPlan {
  readonly guards: ImportUnit[] = [];
  readonly units: ImportUnit[] = [];
  readonly #aggregates = new Map<string, StoredItem>();

  /** A uniqueness guard: the rollback deletes it only while it still names the same owner. */
  guard(item: StoredItem, label: string): void {
    const { pk: _pk, sk: _sk, ...owner } = item;
    this.guards.push({ label, puts: [{ item, unchanged: Object.keys(owner) }], counts: [] });
  }

  /** One item of the file: its new items and the counts they cause, always written together. */
  unit(
    label: string,
    puts: readonly (StoredItem | PlannedPut)[],
    counts: readonly PlannedCount[] = [],
  ): void {
    this.units.push({
      label,
      // A bare stored item has its key at the top; a PlannedPut wraps one.
      puts: puts.map((put): PlannedPut => ('pk' in put ? { item: put as StoredItem } : (put as PlannedPut))),
      counts,
    });
  }

  /**
   * Declares an aggregate item that only exists because of this import (the stats of a new user): the first
   * transaction that counts into it puts it (`base` plus its counts), later ones move it with ADD, and the
   * rollback deletes it. Without the declaration a count is an ADD on a shared item, undone by the opposite ADD.
   */
  aggregate(key: ItemKey, base: Readonly<Record<string, unknown>> = {}): void {
    this.#aggregates.set(keyId(key), { ...base, ...key });
  }

  /** The declared aggregate's first item (a copy), if `key` was declared. */
  aggregateBase(id: string): StoredItem | undefined {
    const base = this.#aggregates.get(id);
    return base ? { ...base } : undefined;
  }
}
