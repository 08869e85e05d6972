import type { IndexName } from './table-definition.ts';
import { GLOBAL_INDEXES, TABLE_KEY } from './table-definition.ts';

/** The primary key of one item. */
export interface ItemKey {
  readonly pk: string;
  readonly sk: string;
}

/**
 * One string per item key, for maps and sets of keys: `pk` and `sk` joined by a NUL, which no key string holds,
 * so two different keys never give the same string. An item read back (any attributes) gives its own key's.
 */
export const itemKeyId = (key: { readonly pk?: unknown; readonly sk?: unknown }): string =>
  `${String(key.pk)}\u0000${String(key.sk)}`;

/**
 * A partition that an access pattern reads: of the table itself (`pk`) or of one index (`gsiNpk`), optionally
 * narrowed to the sort keys that start with `sortPrefix`. Key modules name one descriptor per access pattern
 * (`recipientNotifications(userId)`), so a query never spells an attribute name or passes a dummy sort value, and
 * the item builders use the same descriptor to put an item into that partition (`indexEntry`).
 */
export interface Partition {
  /** The index to query; undefined for the table's own key. */
  readonly index: IndexName | undefined;
  /** Attribute holding the partition key in that index (`pk`, `gsi1pk`, …). */
  readonly partitionKey: string;
  /** Attribute holding the sort key in that index (`sk`, `gsi1sk`, …). */
  readonly sortKey: string;
  readonly value: string;
  /** Only sort keys starting with this (a `begins_with` key condition). */
  readonly sortPrefix?: string;
  /** Only sort keys within this range, both ends inclusive (`>=`, `<=` or `BETWEEN`); exclusive with sortPrefix. */
  readonly sortRange?: SortRange;
}

export interface SortRange {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/** The same partition narrowed to a sort-key range (an empty range leaves it whole). */
export function withSortRange(partition: Partition, range: SortRange): Partition {
  if (partition.sortPrefix !== undefined)
    throw new Error('A partition takes a sort prefix or a range, not both');
  if (range.from === undefined && range.to === undefined) return partition;
  return { ...partition, sortRange: range };
}

export function tablePartition(value: string, sortPrefix?: string): Partition {
  return {
    index: undefined,
    partitionKey: TABLE_KEY.partitionKey,
    sortKey: TABLE_KEY.sortKey,
    value,
    ...(sortPrefix === undefined ? {} : { sortPrefix }),
  };
}

export function indexPartition(index: IndexName, value: string, sortPrefix?: string): Partition {
  const definition = GLOBAL_INDEXES.find((candidate) => candidate.name === index);
  if (!definition) throw new Error(`Unknown index ${index}`);
  return {
    index,
    partitionKey: definition.partitionKey,
    sortKey: definition.sortKey,
    value,
    ...(sortPrefix === undefined ? {} : { sortPrefix }),
  };
}

/**
 * The index attributes an item carries to be listed in `partition` at `sort`, e.g. `{ gsi1pk, gsi1sk }`. Only
 * index partitions: an item's table key is its identity (`ItemKey`), not an entry.
 */
export function indexEntry(partition: Partition, sort: string): Record<string, string> {
  if (partition.index === undefined) throw new Error('indexEntry needs an index partition');
  return { [partition.partitionKey]: partition.value, [partition.sortKey]: sort };
}

/** The key condition of a Query on `partition`, with its placeholder names and values. */
export function keyCondition(partition: Partition): {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = { '#pk': partition.partitionKey };
  const values: Record<string, unknown> = { ':pk': partition.value };
  const { sortPrefix, sortRange } = partition;
  if (sortPrefix !== undefined) {
    names['#sk'] = partition.sortKey;
    values[':skPrefix'] = sortPrefix;
    return { expression: '#pk = :pk AND begins_with(#sk, :skPrefix)', names, values };
  }
  if (sortRange?.from === undefined && sortRange?.to === undefined)
    return { expression: '#pk = :pk', names, values };
  names['#sk'] = partition.sortKey;
  if (sortRange.from !== undefined) values[':skFrom'] = sortRange.from;
  if (sortRange.to !== undefined) values[':skTo'] = sortRange.to;
  const sort =
    sortRange.from !== undefined && sortRange.to !== undefined
      ? '#sk BETWEEN :skFrom AND :skTo'
      : sortRange.from !== undefined
        ? '#sk >= :skFrom'
        : '#sk <= :skTo';
  return { expression: `#pk = :pk AND ${sort}`, names, values };
}
