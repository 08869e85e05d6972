import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keyCondition, type Partition } from './partition.ts';
import { type ItemSchema, parseItem } from './reads.ts';

/**
 * The newest items of one list spread over several partitions of an index, each item in one of them chosen by a
 * hash of its id (the timeline's shards): the first `window` items that `keep` keeps, newest first (descending sort
 * key), merged across the partitions.
 *
 * Cost: the items of the window are spread evenly, so each partition is read first for its share of the window
 * plus a margin (`firstReadLimit`: ten items for a page of 20 over 4 partitions, a few small index entries that fit
 * one 4 KB read unit), all in parallel. A partition is read further only while it may still hold a kept item newer
 * than the window's last one: when it returned its whole limit and its last item read is newer than that (a window
 * that fell unevenly, or items `keep` drops); the second read takes as much as the first, each further one four
 * times the one before (so rounds grow with the log of what `keep` drops). So a page costs each partition
 * one small read in the common case, never O(the list).
 *
 * Exactness: a partition's unread items all sort after the last item it returned (no FilterExpression: the Limit
 * counts what is returned, and `keep` applies afterwards), so once every partition that may hold more has read past
 * the window's last kept item, no unread item can belong to the window.
 */
export interface SpreadWindowQuery<T> {
  readonly sources: readonly Partition[];
  readonly schema: ItemSchema<T>;
  /** How many kept items, from the newest, the caller needs (page × per_page). */
  readonly window: number;
  /**
   * Which items the list shows, asked for beside the first reads (it may wait on reads of its own: the caller's
   * memberships), so those reads need not wait for it. Absent, or answering undefined, keeps every item.
   */
  readonly keep?: (() => Promise<((item: T) => boolean) | undefined>) | undefined;
}

/** DynamoDB answers at most 1 MB per Query whatever the Limit; this bounds one read's Limit. */
const MAX_READ_LIMIT = 1_000;

/** The first read of each partition: its even share of the window and a margin of about 1.5 standard deviations. */
export function firstReadLimit(window: number, sources: number): number {
  const share = Math.ceil(window / sources);
  return Math.min(window, share + Math.ceil(1.5 * Math.sqrt(share)) + 1);
}

interface SourceState<T> {
  readonly kept: { sort: string; item: T }[];
  /** The sort key of the last item read (items after it are unread); undefined before the first read. */
  frontier: string | undefined;
  startKey: Record<string, unknown> | undefined;
  more: boolean;
  limit: number;
  reads: number;
}

export async function querySpreadWindow<T>(query: SpreadWindowQuery<T>): Promise<T[]> {
  if (query.window <= 0) return [];
  const first = firstReadLimit(query.window, query.sources.length);
  const states: SourceState<T>[] = query.sources.map(() => ({
    kept: [],
    frontier: undefined,
    startKey: undefined,
    more: true,
    limit: first,
    reads: 0,
  }));
  const [keep] = await Promise.all([
    query.keep ? query.keep() : undefined,
    ...query.sources.map((source, at) => readOn(query, source, states[at] as SourceState<T>)),
  ]);
  // The first round read before `keep` was known: apply it now.
  if (keep) {
    for (const state of states) {
      const shown = state.kept.filter((entry) => keep(entry.item));
      state.kept.splice(0, state.kept.length, ...shown);
    }
  }
  for (;;) {
    const merged = states.flatMap((state) => state.kept).sort((a, b) => (a.sort < b.sort ? 1 : -1));
    const last = merged.length >= query.window ? merged[query.window - 1]?.sort : undefined;
    const pending = query.sources.flatMap((source, at) => {
      const state = states[at] as SourceState<T>;
      const mayHoldMore = state.more && (last === undefined || (state.frontier ?? '') > last);
      return mayHoldMore ? [{ source, state }] : [];
    });
    if (pending.length === 0) return merged.slice(0, query.window).map((entry) => entry.item);
    await Promise.all(
      pending.map(({ source, state }) => {
        // A partition that filled its first read most often holds one or two more of the window: read as much
        // again (still one read unit); past that `keep` is dropping much of it, so each read takes four times more.
        state.limit = Math.min(MAX_READ_LIMIT, state.reads === 1 ? first : state.limit * 4);
        return readOn(query, source, state, keep);
      }),
    );
  }
}

/** One read of a partition from where it stopped, newest first. */
async function readOn<T>(
  query: SpreadWindowQuery<T>,
  partition: Partition,
  state: SourceState<T>,
  keep?: (item: T) => boolean,
): Promise<void> {
  const condition = keyCondition(partition);
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      ...(partition.index ? { IndexName: partition.index } : {}),
      KeyConditionExpression: condition.expression,
      ExpressionAttributeNames: condition.names,
      ExpressionAttributeValues: condition.values,
      ScanIndexForward: false,
      Limit: state.limit,
      ...(state.startKey ? { ExclusiveStartKey: state.startKey } : {}),
    }),
  );
  const items = result.Items ?? [];
  for (const raw of items) {
    const item = parseItem(query.schema, raw);
    if (!keep || keep(item)) state.kept.push({ sort: String(raw[partition.sortKey]), item });
  }
  const lastRaw = items[items.length - 1];
  if (lastRaw) state.frontier = String(lastRaw[partition.sortKey]);
  state.reads++;
  state.startKey = result.LastEvaluatedKey;
  state.more = result.LastEvaluatedKey !== undefined;
}
