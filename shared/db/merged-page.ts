import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { invalidParams } from '../errors/app-error.ts';
import { db } from './client.ts';
import { decodeCursor, encodeCursor, type SourcePosition } from './cursor.ts';
import type { Partition } from './partition.ts';
import { MAX_SKIPPED_ITEMS, type PageResult, type PageWindow, queryPage } from './query-page.ts';
import { parseItem, partitionQueryInput } from './reads.ts';

export interface MergedPageQuery<T> extends PageWindow<T> {
  /** Partitions whose items form one list, ordered together by their sort keys. */
  readonly sources: readonly Partition[];
  /**
   * The item's identity across sources, when one item can be listed in several (a feed under two topics): copies
   * sharing a sort value and identity are listed once.
   */
  readonly identity?: (item: T) => string;
}

interface Fetched<T> {
  readonly source: number;
  readonly sort: string;
  readonly key: Record<string, string>;
  readonly item: T;
}

/**
 * One page of a list that is the union of several partitions or sort-prefixed ranges of one (an OR of filters, one
 * logical state spread over two physical ones, a course's passed and failed submissions), merged by sort key. Each source contributes at most `perPage` items to a page, so one Query
 * of `perPage` per source is enough: a page costs O(sources × page), never the size of the sources. The cursor
 * in `next_page_url` holds one position per source; without it, page N walks the N-1 pages before it (bounded
 * like queryPage's skip). Sources must be key conditions only (no filter), so a Query's Limit is exact.
 */
export async function queryMergedPage<T>(query: MergedPageQuery<T>): Promise<PageResult<T>> {
  const [only, ...others] = query.sources;
  if (only && others.length === 0 && !query.identity) {
    // One source is a plain page; keep its cheaper skip path. (A static import: esbuild bundles an `import()` of
    // bundled code as a lazily initialised module graph, which it can no longer tree-shake: +52 KB per bundle.)
    return queryPage({ ...query, partition: only });
  }
  const offset = (query.page - 1) * query.perPage;
  if (query.total !== undefined && offset >= query.total) return { items: [], nextCursor: null };
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([query.sources, query.ascending, query.perPage, 'merged']))
    .digest('base64url')
    .slice(0, 16);

  let positions: SourcePosition[] = query.sources.map(() => null);
  let startPage = 1;
  if (query.cursor !== undefined) {
    const decoded = await decodeCursor(query.cursor);
    if (!decoded) throw invalidParams({ cursor: 'is not a cursor from next_page_url' });
    if (
      Array.isArray(decoded.lastKey) &&
      decoded.query === fingerprint &&
      decoded.page === query.page &&
      decoded.lastKey.length === query.sources.length
    ) {
      positions = decoded.lastKey;
      startPage = query.page;
    }
  }
  if (startPage < query.page && offset > MAX_SKIPPED_ITEMS) {
    throw invalidParams({ page: 'is too far to jump to; follow next_page_url (its cursor) instead' });
  }
  for (let page = startPage; ; page++) {
    const result = await mergeOnePage(query, positions);
    if (page === query.page) {
      const more = result.positions.some((position) => position !== 'end');
      return {
        items: result.items,
        nextCursor: more
          ? await encodeCursor({ lastKey: result.positions, page: query.page + 1, query: fingerprint })
          : null,
      };
    }
    positions = result.positions;
    if (positions.every((position) => position === 'end')) return { items: [], nextCursor: null };
  }
}

async function mergeOnePage<T>(
  query: MergedPageQuery<T>,
  positions: readonly SourcePosition[],
): Promise<{ items: T[]; positions: SourcePosition[] }> {
  const fetched = await Promise.all(
    query.sources.map((partition, source) =>
      fetchSource(query, partition, source, positions[source] ?? null),
    ),
  );
  const candidates = fetched.flatMap((batch) => batch.items);
  candidates.sort((a, b) => {
    const order = a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : a.source - b.source;
    return query.ascending ? order : -order;
  });

  const next = [...positions];
  const consumed = fetched.map(() => 0);
  const taken: T[] = [];
  const seen = new Set<string>();
  const identityOf = (candidate: Fetched<T>) =>
    query.identity ? `${candidate.sort}\u0000${query.identity(candidate.item)}` : undefined;
  const consume = (candidate: Fetched<T>) => {
    next[candidate.source] = candidate.key;
    consumed[candidate.source] = (consumed[candidate.source] ?? 0) + 1;
  };
  for (const candidate of candidates) {
    const identity = identityOf(candidate);
    const duplicate = identity !== undefined && seen.has(identity);
    if (taken.length === query.perPage && !duplicate) break;
    // A source with unfetched items sorting before this candidate must not be passed (only possible when copies
    // were skipped): the page ends early and the cursor resumes there.
    const blocked = fetched.some((batch, source) => {
      const last = batch.items.at(-1);
      return (
        batch.more &&
        consumed[source] === batch.items.length &&
        last !== undefined &&
        isBefore(last, candidate, query.ascending)
      );
    });
    if (blocked) break;
    consume(candidate);
    if (duplicate) continue;
    if (identity !== undefined) seen.add(identity);
    taken.push(candidate.item);
  }
  fetched.forEach((batch, source) => {
    if (!batch.more && consumed[source] === batch.items.length) next[source] = 'end';
  });
  return { items: taken, positions: next };
}

/** True when `a` comes strictly before `b` in the list's order. */
function isBefore<T>(a: Fetched<T>, b: Fetched<T>, ascending: boolean): boolean {
  if (a.sort === b.sort) return false;
  return ascending ? a.sort < b.sort : a.sort > b.sort;
}

async function fetchSource<T>(
  query: MergedPageQuery<T>,
  partition: Partition,
  source: number,
  position: SourcePosition,
): Promise<{ items: Fetched<T>[]; more: boolean }> {
  if (position === 'end') return { items: [], more: false };
  const result = await db().send(
    new QueryCommand({
      ...partitionQueryInput(partition),
      ScanIndexForward: query.ascending,
      Limit: query.perPage,
      ...(position ? { ExclusiveStartKey: position } : {}),
    }),
  );
  // Sources may be ranges of one partition told apart by a sort prefix (a quiz result's `P#`/`F#`): they merge by
  // what follows the prefix.
  const prefix = partition.sortPrefix?.length ?? 0;
  const items = (result.Items ?? []).map((raw) => ({
    source,
    sort: String(raw[partition.sortKey]).slice(prefix),
    key: keyOf(raw, partition),
    item: parseItem(query.schema, raw),
  }));
  return { items, more: result.LastEvaluatedKey !== undefined };
}

/** The ExclusiveStartKey that resumes a Query of `partition` after `raw`: table key plus the index's key. */
function keyOf(raw: Record<string, unknown>, partition: Partition): Record<string, string> {
  return {
    pk: String(raw.pk),
    sk: String(raw.sk),
    [partition.partitionKey]: String(raw[partition.partitionKey]),
    [partition.sortKey]: String(raw[partition.sortKey]),
  };
}
