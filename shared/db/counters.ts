import type { ItemKey } from './partition.ts';
import { putAction, type TransactAction, updateAction } from './transact.ts';

/**
 * Deltas of the counters on one aggregate item (flat attributes such as `total`, `unread:new_comment`), summed
 * before they are written: an item may appear only once per TransactWriteItems, so a batch that changes several
 * counted things moves each counter once by the sum.
 */
export class CounterDeltas {
  readonly #deltas = new Map<string, number>();

  add(name: string, amount: number): this {
    this.#deltas.set(name, (this.#deltas.get(name) ?? 0) + amount);
    return this;
  }

  addAll(deltas: Readonly<Record<string, number>>): this {
    for (const [name, amount] of Object.entries(deltas)) this.add(name, amount);
    return this;
  }

  /** The non-zero deltas. */
  entries(): [string, number][] {
    return [...this.#deltas].filter(([, amount]) => amount !== 0);
  }

  get isEmpty(): boolean {
    return this.entries().length === 0;
  }
}

/**
 * The update that moves an aggregate item's counters by `deltas` with `ADD` (which creates a missing counter at
 * 0). Invariant: a counter never goes negative. Each decrement carries the condition `counter >= amount`, so a
 * decrement that would go below zero cancels the whole transaction instead of being written (a missing counter
 * fails the condition too). `setOnCreate` attributes are written only when absent (`if_not_exists`), for items
 * the first increment creates.
 */
export function counterUpdate(
  key: ItemKey,
  deltas: CounterDeltas | Readonly<Record<string, number>>,
  options: {
    setOnCreate?: Readonly<Record<string, unknown>>;
    /** Attributes set in the same update (e.g. a high-water mark the condition guards). */
    set?: Readonly<Record<string, unknown>>;
    /** A further condition the item must meet, ANDed with the floors (placeholders must not start with #c, :c, :f, #s, :s, #v, :v). */
    condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  } = {},
): TransactAction {
  const entries =
    deltas instanceof CounterDeltas ? deltas.entries() : new CounterDeltas().addAll(deltas).entries();
  if (entries.length === 0) throw new Error(`counterUpdate of ${key.pk} ${key.sk} with no change`);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds: string[] = [];
  const floors: string[] = [];
  entries.forEach(([name, amount], index) => {
    names[`#c${index}`] = name;
    values[`:c${index}`] = amount;
    adds.push(`#c${index} :c${index}`);
    if (amount < 0) {
      values[`:f${index}`] = -amount;
      floors.push(`#c${index} >= :f${index}`);
    }
  });
  const sets = [
    ...Object.entries(options.setOnCreate ?? {}).map(([name, value], index) => {
      names[`#s${index}`] = name;
      values[`:s${index}`] = value;
      return `#s${index} = if_not_exists(#s${index}, :s${index})`;
    }),
    ...Object.entries(options.set ?? {}).map(([name, value], index) => {
      names[`#v${index}`] = name;
      values[`:v${index}`] = value;
      return `#v${index} = :v${index}`;
    }),
  ];
  const conditions = [...(options.condition ? [`(${options.condition.expression})`] : []), ...floors];
  Object.assign(names, options.condition?.names);
  Object.assign(values, options.condition?.values);
  return updateAction(key, {
    UpdateExpression: `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}ADD ${adds.join(', ')}`,
    ...(conditions.length > 0 ? { ConditionExpression: conditions.join(' AND ') } : {}),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  });
}

/**
 * The put that creates an aggregate item with these counters, only if it does not exist yet: for a writer that has
 * just read it absent, a cheaper equivalent of `counterUpdate` on a missing item (which a store evaluates clause by
 * clause). If the item appeared meanwhile, the condition fails and the caller moves it with `counterUpdate`
 * instead. Counters must not be negative (a new item starts from zero).
 */
export function counterCreation(
  key: ItemKey,
  deltas: CounterDeltas | Readonly<Record<string, number>>,
  identity: Readonly<Record<string, unknown>> = {},
): TransactAction {
  const entries =
    deltas instanceof CounterDeltas ? deltas.entries() : new CounterDeltas().addAll(deltas).entries();
  if (entries.some(([, amount]) => amount < 0))
    throw new Error(`counterCreation of ${key.pk} ${key.sk} with a negative counter`);
  return putAction(
    { ...identity, ...Object.fromEntries(entries), pk: key.pk, sk: key.sk },
    { ifAbsent: true },
  );
}
