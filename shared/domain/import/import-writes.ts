import type { ItemKey } from '../../db/partition.ts';
import type { TransactAction as TransactItem } from '../../db/transact.ts';

/** A new item; `label` names the file item it comes from, for the message if its guard is lost to a race. */
export interface NewItemWrite {
  readonly item: Record<string, unknown> & ItemKey;
  readonly guard: boolean;
  readonly label: string;
}

/**
 * Counter deltas on one aggregate item. `base` set: the item is new with this import and is written whole (final
 * values), undone by deleting it. `base` absent: an existing shared item moved with ADD, undone by the opposite ADD.
 * `deleteOnUndo` marks ADD items that only exist because of this import (stats of new users).
 */
export interface CounterWrite {
  readonly key: ItemKey;
  readonly deltas: Record<string, number>;
  base?: Record<string, unknown>;
  deleteOnUndo?: boolean;
}

/** Everything an import writes, collected before the first write. */
export class ImportWrites {
  readonly items: NewItemWrite[] = [];
  readonly counters = new Map<string, CounterWrite>();

  put(item: Record<string, unknown> & ItemKey, label: string): void {
    this.items.push({ item, label, guard: String(item.entity ?? '').endsWith('_guard') });
  }

  /** Adds deltas to an aggregate; several contributions to one item are summed (a transaction touches it once). */
  add(
    key: ItemKey,
    deltas: Record<string, number>,
    options: { base?: Record<string, unknown>; deleteOnUndo?: boolean } = {},
  ): void {
    const id = `${key.pk}\u0000${key.sk}`;
    let counter = this.counters.get(id);
    if (!counter) {
      counter = { key, deltas: {} };
      this.counters.set(id, counter);
    }
    if (options.base) counter.base = { ...counter.base, ...options.base };
    if (options.deleteOnUndo) counter.deleteOnUndo = true;
    for (const [name, amount] of Object.entries(deltas))
      counter.deltas[name] = (counter.deltas[name] ?? 0) + amount;
  }

  /**
   * Takes over the transaction items another domain builds for one entity (users, notifications): Puts become new
   * items, `ADD` Updates become counter deltas, so they are merged with the import's other counters.
   */
  adopt(
    transactItems: readonly TransactItem[],
    label: string,
    options: { deleteOnUndo?: boolean } = {},
  ): void {
    for (const action of transactItems) {
      if (action.Put) {
        this.put(action.Put.Item as Record<string, unknown> & ItemKey, label);
      } else if (action.Update) {
        this.add(action.Update.Key as ItemKey, addDeltasOf(action.Update), options);
      } else {
        throw new Error(`The import cannot adopt a ${Object.keys(action).join('/')} action`);
      }
    }
  }
}

/** Reads `ADD #a :a, #b :b` back into deltas; anything else is a programming error, not operator input. */
function addDeltasOf(update: NonNullable<TransactItem['Update']>): Record<string, number> {
  const expression = (update.UpdateExpression ?? '').trim();
  if (!expression.startsWith('ADD ')) throw new Error(`Only ADD updates can be adopted: ${expression}`);
  const deltas: Record<string, number> = {};
  for (const part of expression.slice(4).split(',')) {
    const [nameToken, valueToken] = part.trim().split(/\s+/);
    const name = nameToken?.startsWith('#') ? update.ExpressionAttributeNames?.[nameToken] : nameToken;
    const value = valueToken ? update.ExpressionAttributeValues?.[valueToken] : undefined;
    if (name === undefined || typeof value !== 'number')
      throw new Error(`Cannot adopt the update part "${part}"`);
    deltas[name] = (deltas[name] ?? 0) + value;
  }
  return deltas;
}
