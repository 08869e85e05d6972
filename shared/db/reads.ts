import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName } from './client.ts';
import { type ItemKey, itemKeyId, keyCondition, type Partition } from './partition.ts';

/**
 * Reads that parse what they read: every item is checked against its stored-item schema (the `<entity>-item.ts`
 * of its domain), so a repository answers typed values instead of casting, and a malformed item fails loudly at
 * the boundary. Object schemas drop what they do not name, so keys and index attributes never travel further.
 */
export type ItemSchema<T> = v.GenericSchema<unknown, T>;

export function parseItem<T>(schema: ItemSchema<T>, raw: Record<string, unknown>): T {
  const result = v.safeParse(schema, raw);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  throw new Error(`Stored item ${String(raw.pk)} / ${String(raw.sk)} is malformed: ${problems.join('; ')}`);
}

/** One item by key; `consistent` for read-decide-write paths. */
export async function getItem<T>(
  key: ItemKey,
  schema: ItemSchema<T>,
  options: { consistent?: boolean } = {},
): Promise<T | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: options.consistent ?? false }),
  );
  return result.Item ? parseItem(schema, result.Item) : undefined;
}

/**
 * Many items by key, in BatchGetItem calls of at most 100 keys; UnprocessedKeys (throttling) are retried with a
 * short backoff. Missing items are simply absent from the answer; order is not preserved.
 */
export async function batchGetItems<T>(
  keys: readonly ItemKey[],
  schema: ItemSchema<T>,
  options: { consistent?: boolean } = {},
): Promise<T[]> {
  const found = await batchGetRaw(keys, options.consistent ?? false);
  return found.map((item) => parseItem(schema, item));
}

/**
 * Which of these keys name an existing item (as `itemKeyId`s): the existence checks of idempotent writers, which
 * read keys only. Strongly consistent: they decide what to write.
 */
export async function presentKeys(keys: readonly ItemKey[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  return new Set((await batchGetRaw(keys, true)).map(itemKeyId));
}

/**
 * A few items of different kinds in one round trip (one BatchGetItem of at most 100 keys), each parsed with its
 * own schema; the answer follows the order asked, `undefined` where an item is absent. `consistent` makes every
 * read strongly consistent (decisions that must see the latest write, e.g. the authorizer's).
 */
export async function getItems<T extends readonly unknown[]>(
  reads: { readonly [K in keyof T]: { readonly key: ItemKey; readonly schema: ItemSchema<T[K]> } },
  options: { consistent?: boolean } = {},
): Promise<{ [K in keyof T]: T[K] | undefined }> {
  const asked = reads as readonly { key: ItemKey; schema: ItemSchema<unknown> }[];
  if (asked.length > 100) throw new Error('getItems reads at most 100 items; use batchGetItems');
  const found = new Map(
    (
      await batchGetRaw(
        asked.map((read) => read.key),
        options.consistent ?? false,
      )
    ).map((item) => [itemKeyId(item), item]),
  );
  return asked.map((read) => {
    const item = found.get(itemKeyId(read.key));
    return item ? parseItem(read.schema, item) : undefined;
  }) as { [K in keyof T]: T[K] | undefined };
}

/** Unparsed items by key, for db-layer helpers that read items of no one schema (sharded counter shards). */
export const batchGetRawItems = (
  keys: readonly ItemKey[],
  consistent: boolean,
): Promise<Record<string, unknown>[]> => batchGetRaw(keys, consistent);

async function batchGetRaw(
  keys: readonly ItemKey[],
  consistent: boolean,
): Promise<Record<string, unknown>[]> {
  const unique = [...new Map(keys.map((key) => [itemKeyId(key), key])).values()];
  const found: Record<string, unknown>[] = [];
  for (let start = 0; start < unique.length; start += 100) {
    // The keys as the document client takes them (and answers back unprocessed): plain attribute maps.
    let pending: Record<string, unknown>[] | undefined = unique
      .slice(start, start + 100)
      .map(({ pk, sk }) => ({ pk, sk }));
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt >= 6) throw new Error('BatchGetItem kept returning unprocessed keys');
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const result: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({
          RequestItems: { [tableName()]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } },
        }),
      );
      found.push(...(result.Responses?.[tableName()] ?? []));
      pending = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return found;
}

/** A Query's FilterExpression with its placeholder names and values. */
export interface QueryFilter {
  readonly expression: string;
  readonly names?: Record<string, string>;
  readonly values?: Record<string, unknown>;
}

/** Filters that must all hold, as one (their placeholders must differ); undefined when none is given. */
export function allFilters(...parts: (QueryFilter | undefined)[]): QueryFilter | undefined {
  const present = parts.filter((part): part is QueryFilter => part !== undefined);
  if (present.length <= 1) return present[0];
  return {
    expression: present.map((part) => `(${part.expression})`).join(' AND '),
    names: Object.assign({}, ...present.map((part) => part.names ?? {})),
    values: Object.assign({}, ...present.map((part) => part.values ?? {})),
  };
}

/**
 * The table, index and key condition of a Query of one partition (and its FilterExpression, if any): what every
 * Query of this layer starts from.
 */
export function partitionQueryInput(partition: Partition, filter?: QueryFilter) {
  const condition = keyCondition(partition);
  return {
    TableName: tableName(),
    ...(partition.index ? { IndexName: partition.index } : {}),
    KeyConditionExpression: condition.expression,
    ExpressionAttributeNames: { ...condition.names, ...filter?.names },
    ExpressionAttributeValues: { ...condition.values, ...filter?.values },
    ...(filter ? { FilterExpression: filter.expression } : {}),
  };
}

export interface QueryOptions {
  readonly ascending?: boolean;
  readonly limit?: number;
  /** Only on the table's own key: indexes are eventually consistent. */
  readonly consistent?: boolean;
}

/** The first `limit` items of a partition (one Query; `limit` bounds the cost). */
export async function queryItems<T>(
  partition: Partition,
  schema: ItemSchema<T>,
  options: QueryOptions = {},
): Promise<T[]> {
  const result = await db().send(
    new QueryCommand({
      ...partitionQueryInput(partition),
      ScanIndexForward: options.ascending ?? true,
      ...(options.limit === undefined ? {} : { Limit: options.limit }),
      ...(options.consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return (result.Items ?? []).map((item) => parseItem(schema, item));
}

/**
 * Every item of a partition, page by page (bulk operations and workers, never a request's list): each yielded
 * batch is one Query of at most `pageSize` items.
 */
export async function* queryAll<T>(
  partition: Partition,
  schema: ItemSchema<T>,
  options: { ascending?: boolean; pageSize?: number; consistent?: boolean } = {},
): AsyncGenerator<T[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const result: QueryCommandOutput = await db().send(
      new QueryCommand({
        ...partitionQueryInput(partition),
        ScanIndexForward: options.ascending ?? true,
        Limit: options.pageSize ?? 200,
        ExclusiveStartKey: startKey,
        ...(options.consistent ? { ConsistentRead: true } : {}),
      }),
    );
    const items = (result.Items ?? []).map((item) => parseItem(schema, item));
    if (items.length > 0) yield items;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}

/** An item read by `queryWindow`, with the key that resumes a Query of its partition right after it. */
export interface PositionedItem<T> {
  readonly item: T;
  /** The ExclusiveStartKey after this item: the table key plus the index's key. */
  readonly position: Record<string, string>;
}

/**
 * One Query of at most `limit` items of a partition, from `after` (exclusive) on, each with its position, and
 * where the partition goes on (undefined at its end): a request that reads a bounded window and hands the rest to
 * a cursor.
 */
export async function queryWindow<T>(
  partition: Partition,
  schema: ItemSchema<T>,
  options: { limit: number; after?: Record<string, string> | undefined; ascending?: boolean },
): Promise<{ items: PositionedItem<T>[]; next: Record<string, string> | undefined }> {
  const result = await db().send(
    new QueryCommand({
      ...partitionQueryInput(partition),
      ScanIndexForward: options.ascending ?? true,
      Limit: options.limit,
      ...(options.after ? { ExclusiveStartKey: options.after } : {}),
    }),
  );
  const positionOf = (raw: Record<string, unknown>): Record<string, string> => ({
    pk: String(raw.pk),
    sk: String(raw.sk),
    [partition.partitionKey]: String(raw[partition.partitionKey]),
    [partition.sortKey]: String(raw[partition.sortKey]),
  });
  return {
    items: (result.Items ?? []).map((raw) => ({ item: parseItem(schema, raw), position: positionOf(raw) })),
    next: result.LastEvaluatedKey as Record<string, string> | undefined,
  };
}
