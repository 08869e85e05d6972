import { createHash } from 'node:crypto';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { IndexName } from './table-definition.ts';

export interface PageQuery {
  /** Omit for the table's own key. */
  readonly index?: IndexName;
  readonly keyCondition: string;
  readonly names?: Record<string, string>;
  readonly values: Record<string, unknown>;
  readonly filter?: string;
  /** Newest first is `false` (descending sort key). */
  readonly ascending: boolean;
  readonly page: number;
  readonly perPage: number;
  /** A cursor from an earlier page's result; used only when it leads to exactly `page`. */
  readonly cursor?: string | undefined;
}

export interface PageResult<T> {
  readonly items: T[];
  /** Cursor to the page after this one, or null at the end. */
  readonly nextCursor: string | null;
  readonly consumedReadUnits: number;
}

/**
 * Reads one page of a key-condition query. With a cursor that leads to `page`, it costs one page. Without one,
 * page N first skips (N-1) x perPage keys with `Select: COUNT` (no items transferred, but read units still
 * consumed): O(offset), the documented fallback for clients that jump to a page number.
 */
export async function queryPage<T>(query: PageQuery): Promise<PageResult<T>> {
  const base: QueryCommandInput = {
    TableName: tableName(),
    ...(query.index ? { IndexName: query.index } : {}),
    KeyConditionExpression: query.keyCondition,
    ...(query.names ? { ExpressionAttributeNames: query.names } : {}),
    ExpressionAttributeValues: query.values,
    ...(query.filter ? { FilterExpression: query.filter } : {}),
    ScanIndexForward: query.ascending,
    ReturnConsumedCapacity: 'TOTAL',
  };

  let consumed = 0;
  let startKey: Record<string, unknown> | undefined;
  const fingerprint = queryFingerprint(query);
  const decoded = query.cursor ? decodeCursor(query.cursor) : undefined;
  if (decoded && decoded.page === query.page && decoded.query === fingerprint) {
    startKey = decoded.lastKey;
  } else if (query.page > 1) {
    let toSkip = (query.page - 1) * query.perPage;
    while (toSkip > 0) {
      const skipped = await db().send(
        new QueryCommand({ ...base, Select: 'COUNT', Limit: toSkip, ExclusiveStartKey: startKey }),
      );
      consumed += skipped.ConsumedCapacity?.CapacityUnits ?? 0;
      toSkip -= skipped.Count ?? 0;
      startKey = skipped.LastEvaluatedKey;
      if (!startKey) {
        // Past the end: an empty page (decisions.md: 200 with empty data).
        return { items: [], nextCursor: null, consumedReadUnits: consumed };
      }
    }
  }

  const items: T[] = [];
  let lastKey: Record<string, unknown> | undefined = startKey;
  // A filter can return fewer than Limit items; keep reading until the page is full or the data ends.
  do {
    const result = await db().send(
      new QueryCommand({ ...base, Limit: query.perPage - items.length, ExclusiveStartKey: lastKey }),
    );
    consumed += result.ConsumedCapacity?.CapacityUnits ?? 0;
    items.push(...((result.Items ?? []) as T[]));
    lastKey = result.LastEvaluatedKey;
  } while (lastKey && items.length < query.perPage);

  return {
    items,
    nextCursor: lastKey ? encodeCursor(lastKey, query.page + 1, fingerprint) : null,
    consumedReadUnits: consumed,
  };
}

/** Identifies a query by everything that selects, orders and sizes its pages (not the page number). */
function queryFingerprint(query: PageQuery): string {
  const { index, keyCondition, names, values, filter, ascending, perPage } = query;
  return createHash('sha256')
    .update(JSON.stringify([index, keyCondition, names, values, filter, ascending, perPage]))
    .digest('base64url')
    .slice(0, 16);
}
