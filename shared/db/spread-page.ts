import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { type Partition, withSortRange } from './partition.ts';
import { allFilters, type ItemSchema, parseItem, partitionQueryInput, type QueryFilter } from './reads.ts';

/**
 * The newest items of one list spread over several partitions of an index, each item in one of them chosen by a
 * hash of its id (the timeline's shards): the first `window` items that `keep` keeps, newest first (descending sort
 * key), merged across the partitions.
 *
 * Cost and round trips (issue 20 item 6: a page within 3 serial rounds, so its reads take at most 2 of them):
 * 1. Each partition is read for its share of the window plus a margin (`firstReadLimit`: ten items for a page of 20
 *    over 4 partitions, a few small index entries that fit one 4 KB read unit), all in parallel and beside whatever
 *    `keep` waits on. Most often the merge is then complete.
 * 2. Otherwise at most one more round most often completes it:
 *    - when the first reads kept at least `window` items, the window's last kept item bounds what is missing: each
 *      partition that may hold more is read once from where it stopped down to that item's sort key (a key
 *      condition, with `keep`'s FilterExpression): exact, and O(the items in that range);
 *    - when they kept fewer (`keep` drops most of the newest items), each partition that holds more is read to
 *      twice the depth where the window should end at the density the first reads kept, with the FilterExpression;
 *      should a partition still hold more of the window after that, the bounded read of the first case follows.
 *
 * Exactness: a partition's unread items all sort after the last item it evaluated (its LastEvaluatedKey), so once
 * every partition that may hold more has been read past the window's last kept item, no unread item can belong to
 * the window.
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
  readonly keep?: (() => Promise<KeepRule<T> | undefined>) | undefined;
  /** A FilterExpression known from the start: every read applies it (and `keep`'s, once known). */
  readonly filter?: QueryFilter | undefined;
  /**
   * The item's identity across partitions, when one item can be listed in several (a feed under two topics): the
   * copies share a sort key, and the window lists the item once.
   */
  readonly identity?: ((item: T) => string) | undefined;
  /**
   * The first reads ask for this many times `firstReadLimit` (default 1): for a list whose `keep` most often drops
   * some of the newest items, so that the first round most often suffices for a few small entries more.
   */
  readonly readAhead?: number | undefined;
}

/** Which items a list keeps: in memory, and the same rule as a FilterExpression for the reads that follow. */
export interface KeepRule<T> {
  readonly keeps: (item: T) => boolean;
  readonly filter?: QueryFilter | undefined;
  /** About what share of the list's items it keeps (from counters): the density assumed while none was kept yet. */
  readonly share?: number | undefined;
}

export interface SpreadWindow<T> {
  readonly items: T[];
  /** The serial rounds of Queries it took (1 when the first reads were enough). */
  readonly rounds: number;
}

/** DynamoDB answers at most 1 MB per Query whatever the Limit; this bounds one read's Limit. */
const MAX_READ_LIMIT = 1_000;

/** The first read of each partition: its even share of the window and a margin of about 1.5 standard deviations. */
export function firstReadLimit(window: number, sources: number): number {
  const share = Math.ceil(window / sources);
  return Math.min(window, share + Math.ceil(1.5 * Math.sqrt(share)) + 1);
}

interface SourceState<T> {
  readonly source: Partition;
  readonly kept: { sort: string; item: T }[];
  /** The sort key of the last item evaluated (items after it are unread); undefined before the first read. */
  frontier: string | undefined;
  startKey: Record<string, unknown> | undefined;
  more: boolean;
  /** How many of its items were read (kept or not). */
  evaluated: number;
}

/** What the reads so far evaluated and kept (the density of a read on). */
interface Tally {
  evaluated: number;
  kept: number;
}

export async function querySpreadWindow<T>(query: SpreadWindowQuery<T>): Promise<SpreadWindow<T>> {
  if (query.window <= 0) return { items: [], rounds: 0 };
  const first = Math.ceil(firstReadLimit(query.window, query.sources.length) * (query.readAhead ?? 1));
  const states: SourceState<T>[] = query.sources.map((source) => ({
    source,
    kept: [],
    frontier: undefined,
    startKey: undefined,
    more: true,
    evaluated: 0,
  }));
  const tally: Tally = { evaluated: 0, kept: 0 };
  const [rule] = await Promise.all([
    query.keep ? query.keep() : undefined,
    ...states.map((state) => readOn(query, state, tally, { limit: first })),
  ]);
  // The first round read before `keep` was known: apply it now.
  if (rule) {
    for (const state of states) {
      const shown = state.kept.filter((entry) => rule.keeps(entry.item));
      state.kept.splice(0, state.kept.length, ...shown);
    }
    tally.kept = states.reduce((sum, state) => sum + state.kept.length, 0);
  }
  for (let rounds = 1; ; rounds++) {
    const merged = distinct(
      states.flatMap((state) => state.kept).sort((a, b) => (a.sort < b.sort ? 1 : -1)),
      query.identity,
    );
    const last = merged.length >= query.window ? merged[query.window - 1]?.sort : undefined;
    const pending = states.filter(
      (state) => state.more && (last === undefined || (state.frontier ?? '') > last),
    );
    if (pending.length === 0) {
      return { items: merged.slice(0, query.window).map((entry) => entry.item), rounds };
    }
    if (last !== undefined) {
      await Promise.all(pending.map((state) => readOn(query, state, tally, { down: last }, rule)));
    } else {
      // The window lies about window ÷ density items deep into the union, a quarter of that (with 4 partitions) into
      // each: each partition that holds more is read to twice that depth, at the density kept so far, at least as
      // much as its first read. While none was kept, the reads so far bound the density from above (as if the next
      // item were kept): the rule's share (from counters, over the whole list) is used only when it is lower, so a
      // burst of newest items the caller may not see (a busy private space) is read past in one round, not a round
      // per share-sized step.
      const evidence = 1 / (tally.evaluated + 1);
      const density =
        tally.kept > 0 ? tally.kept / tally.evaluated : Math.min(rule?.share ?? evidence, evidence);
      const rate = Math.max(density, 1 / MAX_READ_LIMIT);
      const depth = (2 * query.window) / states.length / rate;
      // Partitions that hold more than their share (the others ended): each at least twice its part of what is
      // missing.
      const missing = (2 * (query.window - merged.length)) / pending.length / rate;
      await Promise.all(
        pending.map((state) => {
          const limit = Math.min(
            MAX_READ_LIMIT,
            Math.ceil(Math.max(first, depth - state.evaluated, missing)),
          );
          return readOn(query, state, tally, { limit }, rule);
        }),
      );
    }
  }
}

/** The entries in order, each item once (the first of its copies) when items have an identity. */
function distinct<T>(
  entries: { sort: string; item: T }[],
  identity: ((item: T) => string) | undefined,
): { sort: string; item: T }[] {
  if (!identity) return entries;
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const id = identity(entry.item);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * One read of a partition from where it stopped, newest first: of `limit` items, or (`down`) of every item down to
 * that sort key (the partition then holds nothing more the window can use).
 */
async function readOn<T>(
  query: SpreadWindowQuery<T>,
  state: SourceState<T>,
  tally: Tally,
  extent: { readonly limit: number } | { readonly down: string },
  rule?: KeepRule<T>,
): Promise<void> {
  const bounded = 'down' in extent;
  const partition = bounded ? withSortRange(state.source, { from: extent.down }) : state.source;
  const input = partitionQueryInput(partition, allFilters(query.filter, rule?.filter));
  do {
    const result = await db().send(
      new QueryCommand({
        ...input,
        ScanIndexForward: false,
        ...(bounded ? {} : { Limit: extent.limit }),
        ...(state.startKey ? { ExclusiveStartKey: state.startKey } : {}),
      }),
    );
    for (const raw of result.Items ?? []) {
      const item = parseItem(query.schema, raw);
      if (!rule || rule.keeps(item)) {
        state.kept.push({ sort: String(raw[partition.sortKey]), item });
        tally.kept++;
      }
    }
    const evaluated = result.ScannedCount ?? result.Items?.length ?? 0;
    state.evaluated += evaluated;
    tally.evaluated += evaluated;
    state.startKey = result.LastEvaluatedKey;
    state.more = result.LastEvaluatedKey !== undefined;
    if (result.LastEvaluatedKey) state.frontier = String(result.LastEvaluatedKey[partition.sortKey]);
    // A bounded read goes on only past DynamoDB's 1 MB per answer.
  } while (bounded && state.more);
  // Whatever a bounded read left unread sorts after the window's last kept item.
  if (bounded) state.more = false;
}
