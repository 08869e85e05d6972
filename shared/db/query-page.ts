import { createHash } from 'node:crypto';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { invalidParams } from '../errors/app-error.ts';
import { db } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { Partition } from './partition.ts';
import { type ItemSchema, parseItem, partitionQueryInput, type QueryFilter } from './reads.ts';

export type { QueryFilter };

/** What every paged read is asked: how to parse and order the items, which page, and what is known of the list. */
export interface PageWindow<T> {
  readonly schema: ItemSchema<T>;
  /** Newest first is `false` (descending sort key). */
  readonly ascending: boolean;
  readonly page: number;
  readonly perPage: number;
  /** A cursor from an earlier page's result (`next_page_url`); honoured when it leads to exactly `page`. */
  readonly cursor?: string | undefined;
  /**
   * How many items the list holds, when the caller knows it from an aggregate: a page that starts at or past the
   * end is answered empty without reading anything.
   */
  readonly total?: number | undefined;
}

export interface PageQuery<T> extends PageWindow<T> {
  readonly partition: Partition;
  /** A FilterExpression; the page is then filled from further reads (cost O(page + filtered out)). */
  readonly filter?: QueryFilter | undefined;
  /**
   * With a filter that drops a fair share of the list (the visibility of an author's feeds): each read asks for this
   * many times what is still missing, so most pages fill in one Query (read units for a few small entries more).
   */
  readonly readAhead?: number | undefined;
}

export interface PageResult<T> {
  readonly items: T[];
  /** Cursor to the page after this one, or null at the end. */
  readonly nextCursor: string | null;
}

/**
 * Without a cursor and without a known total, a jump to page N must skip (N-1) x perPage keys; beyond this many
 * the request is refused and the client told to follow `next_page_url`, so one request's cost stays bounded.
 */
export const MAX_SKIPPED_ITEMS = 100_000;
/** One COUNT query skips at most this many keys (DynamoDB's Limit is a 32-bit integer). */
const SKIP_BATCH = 10_000;
/**
 * A page this close to the start (offset + page) of a list is read in one Query of the items before it and its
 * own, the first dropped: the same read units as the COUNT skip (DynamoDB charges the items a COUNT evaluates), one
 * serial round fewer. With a filter it reads on until that many items match, as page 1 does for its own.
 */
const READ_THROUGH_ITEMS = 500;

/**
 * Reads one page of a key-condition query. With a cursor that leads to `page`, it costs one page. Without one,
 * page N first skips (N-1) x perPage keys with `Select: COUNT` (no items transferred, but read units still
 * consumed): O(offset), the documented fallback for clients that jump to a page number. A cursor this service did
 * not issue is 400 `rest_invalid_param` and never reaches DynamoDB.
 */
export async function queryPage<T>(query: PageQuery<T>): Promise<PageResult<T>> {
  const offset = (query.page - 1) * query.perPage;
  if (query.total !== undefined && offset >= query.total) return { items: [], nextCursor: null };

  const base: QueryCommandInput = {
    ...partitionQueryInput(query.partition, query.filter),
    ScanIndexForward: query.ascending,
  };

  const fingerprint = queryFingerprint(query);
  let startKey: Record<string, unknown> | undefined;
  const decoded = query.cursor === undefined ? undefined : await decodeCursor(query.cursor);
  if (query.cursor !== undefined && decoded === undefined) {
    throw invalidParams({ cursor: 'is not a cursor from next_page_url' });
  }
  if (
    decoded &&
    !Array.isArray(decoded.lastKey) &&
    decoded.page === query.page &&
    decoded.query === fingerprint
  ) {
    startKey = decoded.lastKey;
  } else if (offset > 0 && offset + query.perPage <= READ_THROUGH_ITEMS) {
    return readThrough(query, base, offset, fingerprint);
  } else if (offset > 0) {
    if (query.total === undefined && offset > MAX_SKIPPED_ITEMS) {
      throw invalidParams({ page: `is too far to jump to; follow next_page_url (its cursor) instead` });
    }
    let toSkip = offset;
    while (toSkip > 0) {
      const skipped = await db().send(
        new QueryCommand({
          ...base,
          Select: 'COUNT',
          Limit: Math.min(toSkip, SKIP_BATCH),
          ExclusiveStartKey: startKey,
        }),
      );
      toSkip -= skipped.Count ?? 0;
      startKey = skipped.LastEvaluatedKey;
      // Past the end: an empty page (decisions.md: 200 with empty data).
      if (!startKey) return { items: [], nextCursor: null };
    }
  }

  const read = await readMatching(query, base, query.perPage, startKey);
  return {
    items: read.raw.map((item) => parseItem(query.schema, item)),
    nextCursor: await nextPageCursor(read.lastKey, query.page, fingerprint),
  };
}

/** Page N near the start: the items before it and its own in one Query (more only past 1 MB), the first dropped. */
async function readThrough<T>(
  query: PageQuery<T>,
  base: QueryCommandInput,
  offset: number,
  fingerprint: string,
): Promise<PageResult<T>> {
  const read = await readMatching(query, base, offset + query.perPage, undefined);
  return {
    items: read.raw.slice(offset).map((item) => parseItem(query.schema, item)),
    nextCursor: await nextPageCursor(read.lastKey, query.page, fingerprint),
  };
}

/** DynamoDB answers at most 1 MB per Query whatever the Limit; this bounds a read ahead's Limit. */
const MAX_READ_AHEAD_LIMIT = 1_000;

/**
 * The next `wanted` items from `startKey` (fewer at the end of the list). A filter can return fewer than its Limit;
 * the reads go on until enough match. With `readAhead`, each read asks for that many times what is still missing
 * (at the share of matches seen so far), and what it read beyond `wanted` is dropped, the cursor at the last item
 * kept.
 */
async function readMatching<T>(
  query: PageQuery<T>,
  base: QueryCommandInput,
  wanted: number,
  startKey: Record<string, unknown> | undefined,
): Promise<{ raw: Record<string, unknown>[]; lastKey: Record<string, unknown> | undefined }> {
  const ahead = query.filter ? (query.readAhead ?? 1) : 1;
  const raw: Record<string, unknown>[] = [];
  let evaluated = 0;
  let lastKey = startKey;
  do {
    const missing = wanted - raw.length;
    // Before any match: as if the next item read matched.
    const density = raw.length === 0 ? 1 / (evaluated + 1) : raw.length / evaluated;
    const limit =
      ahead === 1 ? missing : Math.min(MAX_READ_AHEAD_LIMIT, Math.ceil((ahead * missing) / density));
    const result = await db().send(new QueryCommand({ ...base, Limit: limit, ExclusiveStartKey: lastKey }));
    raw.push(...(result.Items ?? []));
    evaluated += result.ScannedCount ?? result.Items?.length ?? 0;
    lastKey = result.LastEvaluatedKey;
  } while (lastKey && raw.length < wanted);
  if (raw.length > wanted) {
    raw.splice(wanted);
    lastKey = keyOfItem(raw[wanted - 1] as Record<string, unknown>, query.partition);
  }
  return { raw, lastKey };
}

/** The ExclusiveStartKey that resumes a Query of `partition` after `item`: the table's key and the index's. */
const keyOfItem = (item: Record<string, unknown>, partition: Partition): Record<string, unknown> => ({
  pk: item.pk,
  sk: item.sk,
  [partition.partitionKey]: item[partition.partitionKey],
  [partition.sortKey]: item[partition.sortKey],
});

/** The cursor to the page after `page` where the read stopped, or null when the list ended. */
async function nextPageCursor(
  lastKey: Record<string, unknown> | undefined,
  page: number,
  fingerprint: string,
): Promise<string | null> {
  return lastKey
    ? encodeCursor({ lastKey: lastKey as Record<string, string>, page: page + 1, query: fingerprint })
    : null;
}

/** Identifies a query by everything that selects, orders and sizes its pages (not the page number). */
function queryFingerprint(query: PageQuery<unknown>): string {
  const { partition, filter, ascending, perPage } = query;
  return createHash('sha256')
    .update(JSON.stringify([partition, filter, ascending, perPage]))
    .digest('base64url')
    .slice(0, 16);
}
