import { createTableInput, TABLE_KEY } from '../../../shared/db/table-definition.ts';

/**
 * DynamoDB's capacity rules, applied to item images (the heat benchmark's meter, heat-meter.ts, supplies them):
 *
 * - Item size: attribute names plus values (strings and binaries by UTF-8 length, numbers about one byte per two
 *   significant digits plus one, booleans and nulls 1, lists and maps 3 plus their elements, 1 more per element).
 * - Reads: 4 KB units, halved when eventually consistent; a Query is charged on the sum of what it read, a GetItem
 *   or each key of a BatchGetItem on its item (one unit at least, found or not); transactions double.
 * - Writes: 1 KB units on the larger of the item's before and after images (one unit at least), doubled in a
 *   transaction (a ConditionCheck too, on the item it checks). Index entries are written as DynamoDB replicates
 *   them, not doubled: a put when the item enters an index, a delete when it leaves, both when its index key
 *   changes, an update when it stays and a projected attribute changes; each on the index entry's own size.
 * Projections come from the table definition, so a narrower projection shows in the figures.
 */
export type Item = Record<string, unknown>;

export interface Charge {
  /** `table` or an index name. */
  readonly where: string;
  readonly pk: string;
  readonly units: number;
}

interface IndexShape {
  readonly name: string;
  readonly pk: string;
  readonly sk: string;
  /** undefined: every attribute (ALL). */
  readonly projected: ReadonlySet<string> | undefined;
}

const INDEXES: readonly IndexShape[] = (createTableInput('heat').GlobalSecondaryIndexes ?? []).map(
  (index) => {
    const [pk, sk] = index.KeySchema.map((key) => key.AttributeName) as [string, string];
    const projection = index.Projection as { ProjectionType: string; NonKeyAttributes?: string[] };
    const keys = [TABLE_KEY.partitionKey, TABLE_KEY.sortKey, pk, sk];
    return {
      name: index.IndexName,
      pk,
      sk,
      projected:
        projection.ProjectionType === 'ALL'
          ? undefined
          : new Set([
              ...keys,
              ...(projection.ProjectionType === 'INCLUDE' ? (projection.NonKeyAttributes ?? []) : []),
            ]),
    };
  },
);

export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits =
      String(value)
        .replace(/[-.]|e.*$/gi, '')
        .replace(/^0+|0+$/g, '').length || 1;
    return Math.ceil(digits / 2) + 1;
  }
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof Set) return [...value].reduce((sum: number, member) => sum + valueSize(member), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, member) => sum + 1 + valueSize(member), 0);
  if (typeof value === 'object') return 3 + itemSize(value as Item) + Object.keys(value).length;
  return 1;
}

export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    size += Buffer.byteLength(name) + valueSize(value);
  }
  return size;
}

const projectionOf = (item: Item, index: IndexShape): Item =>
  index.projected
    ? Object.fromEntries(Object.entries(item).filter(([name]) => index.projected?.has(name)))
    : item;

const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** What one item's change costs: the table item (doubled in a transaction) and every index entry it moves. */
export function writeCharges(
  before: Item | undefined,
  after: Item | undefined,
  options: { transactional: boolean; key: { pk: string } },
): Charge[] {
  const charges: Charge[] = [];
  const size = Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0);
  charges.push({
    where: 'table',
    pk: options.key.pk,
    units: writeUnits(size) * (options.transactional ? 2 : 1),
  });
  for (const index of INDEXES) {
    const was = before && typeof before[index.pk] === 'string' && typeof before[index.sk] === 'string';
    const is = after && typeof after[index.pk] === 'string' && typeof after[index.sk] === 'string';
    const old = was ? projectionOf(before as Item, index) : undefined;
    const now = is ? projectionOf(after as Item, index) : undefined;
    const samePlace = old && now && old[index.pk] === now[index.pk] && old[index.sk] === now[index.sk];
    if (samePlace) {
      if (JSON.stringify(sorted(old)) !== JSON.stringify(sorted(now)))
        charges.push({
          where: index.name,
          pk: String(now[index.pk]),
          units: writeUnits(Math.max(itemSize(old), itemSize(now))),
        });
      continue;
    }
    if (old) charges.push({ where: index.name, pk: String(old[index.pk]), units: writeUnits(itemSize(old)) });
    if (now) charges.push({ where: index.name, pk: String(now[index.pk]), units: writeUnits(itemSize(now)) });
  }
  return charges;
}

/** A ConditionCheck of a transaction, or a write refused by its condition: the item's units, nothing moved. */
export const checkCharge = (item: Item | undefined, pk: string, transactional: boolean): Charge => ({
  where: 'table',
  pk,
  units: writeUnits(item ? itemSize(item) : 0) * (transactional ? 2 : 1),
});

/** Read units of items read together (one Query) or one by one (GetItem, each key of a BatchGetItem). */
export const readUnits = (bytes: number, consistent: boolean, transactional = false): number =>
  Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5) * (transactional ? 2 : 1);

function sorted(item: Item): Item {
  return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)));
}
