import { type ItemKey, itemKeyId } from './partition.ts';
import { batchGetRawItems, type ItemSchema, parseItem } from './reads.ts';

/**
 * Reads of items by key that do not depend on each other, gathered into one BatchGetItem (issue 20: few round
 * trips), whatever domain each belongs to. A domain's repository describes a read (`KeyedRead`: its keys, and how
 * what was found becomes its answer); the use case sends the reads it needs at once with `readTogether`.
 */

/** What one BatchGetItem found, by key. */
export interface FoundItems {
  get(key: ItemKey): Record<string, unknown> | undefined;
}

export interface KeyedRead<T> {
  readonly keys: readonly ItemKey[];
  /** The read must reflect every completed write: the whole batch is then read strongly consistently. */
  readonly consistent?: boolean;
  /** The answer from what was found; may read again in the rare case the item is not where it is expected. */
  readonly settle: (found: FoundItems) => T | Promise<T>;
}

/** One item, parsed; undefined when absent. */
export const itemRead = <T>(
  key: ItemKey,
  schema: ItemSchema<T>,
  options: { consistent?: boolean } = {},
): KeyedRead<T | undefined> => ({
  keys: [key],
  ...(options.consistent ? { consistent: true } : {}),
  settle: (found) => {
    const raw = found.get(key);
    return raw ? parseItem(schema, raw) : undefined;
  },
});

/** Several items of one kind, parsed, in the order asked; absent ones are left out. */
export const itemsRead = <T>(keys: readonly ItemKey[], schema: ItemSchema<T>): KeyedRead<T[]> => ({
  keys,
  settle: (found) =>
    keys.flatMap((key) => {
      const raw = found.get(key);
      return raw ? [parseItem(schema, raw)] : [];
    }),
});

/** A read whose answer is transformed (a repository's own shape). */
export const mapRead = <T, U>(read: KeyedRead<T>, map: (value: T) => U): KeyedRead<U> => ({
  ...read,
  settle: async (found) => map(await read.settle(found)),
});

/** Two reads as one (to hand both to a function that sends one read with its own). */
export const pairRead = <A, B>(a: KeyedRead<A>, b: KeyedRead<B>): KeyedRead<[A, B]> => ({
  keys: [...a.keys, ...b.keys],
  ...(a.consistent || b.consistent ? { consistent: true } : {}),
  settle: async (found) => [await a.settle(found), await b.settle(found)],
});

/** A read with a known answer and no key (a branch that needs nothing read). */
export const noRead = <T>(value: T): KeyedRead<T> => ({ keys: [], settle: () => value });

/**
 * Sends the reads in one BatchGetItem (several only past 100 distinct keys; none when no read has a key),
 * strongly consistent when any read asks for it, and answers each read's value in the order given.
 */
export async function readTogether<T extends readonly unknown[]>(
  reads: {
    readonly [K in keyof T]: KeyedRead<T[K]>;
  },
): Promise<T> {
  const all = reads as readonly KeyedRead<unknown>[];
  const keys = all.flatMap((read) => read.keys);
  const consistent = all.some((read) => read.consistent);
  const items = keys.length === 0 ? [] : await batchGetRawItems(keys, consistent);
  const byKey = new Map(items.map((item) => [itemKeyId(item), item]));
  const found: FoundItems = { get: (key) => byKey.get(itemKeyId(key)) };
  return (await Promise.all(all.map((read) => read.settle(found)))) as unknown as T;
}
