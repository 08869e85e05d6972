import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keyCondition, type Partition } from './partition.ts';
import { type ItemSchema, parseItem } from './reads.ts';
import { TABLE_KEY } from './table-definition.ts';

/**
 * One page of a list stored as one or several sorted streams in one order, e.g. a course's quiz submissions by
 * score kept as "passed" and "failed" sort-key ranges of one index partition (`P#…`, `F#…`), where the unfiltered
 * list is their merge. Each stream's sort values compare by what follows its `sortPrefix`. For lists with page
 * numbers and no cursor (pagination block A), one stream is a plain page.
 *
 * Cost: page N reads, from each stream, at most `perPage` items after the merge position, so page 1 costs about
 * (streams × perPage) items whatever the list's size. Reaching page N > 1 first walks the (N-1) × perPage items
 * before it in merge order, reading keys only: O(offset), the same documented fallback as `queryPage`'s COUNT
 * skip (DynamoDB charges the same read units for both). With `total` known, a page past the end reads nothing.
 */
export interface MergedPageQuery<T> {
  readonly partitions: readonly Partition[];
  readonly schema: ItemSchema<T>;
  readonly ascending: boolean;
  readonly page: number;
  readonly perPage: number;
  readonly total?: number | undefined;
}

type Raw = Record<string, unknown>;

interface Stream {
  readonly partition: Partition;
  readonly base: QueryCommandInput;
  /** ExclusiveStartKey after the last item merged so far (undefined: from the start). */
  consumed: Raw | undefined;
  /** Keys fetched during the skip and not merged yet, and where that fetch stopped. */
  buffer: Raw[];
  fetchedUpTo: Raw | undefined;
  exhausted: boolean;
}

const SKIP_CHUNK = 1_000;

export async function queryMergedPage<T>(query: MergedPageQuery<T>): Promise<T[]> {
  const offset = (query.page - 1) * query.perPage;
  if (query.total !== undefined && offset >= query.total) return [];
  const streams: Stream[] = query.partitions.map((partition) => {
    const condition = keyCondition(partition);
    return {
      partition,
      base: {
        TableName: tableName(),
        ...(partition.index ? { IndexName: partition.index } : {}),
        KeyConditionExpression: condition.expression,
        ExpressionAttributeNames: condition.names,
        ExpressionAttributeValues: condition.values,
        ScanIndexForward: query.ascending,
      },
      consumed: undefined,
      buffer: [],
      fetchedUpTo: undefined,
      exhausted: false,
    };
  });
  const before = (a: string, b: string) => (query.ascending ? a < b : a > b);

  // Skip: merge keys only, up to the page's start.
  for (let remaining = offset; remaining > 0; remaining--) {
    await Promise.all(
      streams.map(async (stream) => {
        // A Query may stop at 1 MB with fewer items than asked; keep going until a head or the end.
        while (stream.buffer.length === 0 && !stream.exhausted) {
          await fetchKeys(stream, Math.min(remaining, SKIP_CHUNK));
        }
      }),
    );
    let next: Stream | undefined;
    for (const stream of streams) {
      const head = stream.buffer[0];
      if (head === undefined) continue;
      if (!next || before(sortValue(stream, head), sortValue(next, next.buffer[0] as Raw))) next = stream;
    }
    if (!next) return [];
    next.consumed = keyOf(next.partition, next.buffer.shift() as Raw);
  }

  // The page: up to perPage items from each stream after its position, merged.
  const heads = await Promise.all(
    streams.map(async (stream) => {
      const result = await db().send(
        new QueryCommand({ ...stream.base, Limit: query.perPage, ExclusiveStartKey: stream.consumed }),
      );
      return (result.Items ?? []).map((item) => ({ value: sortValue(stream, item), item }));
    }),
  );
  return heads
    .flat()
    .sort((a, b) => (a.value === b.value ? 0 : before(a.value, b.value) ? -1 : 1))
    .slice(0, query.perPage)
    .map(({ item }) => parseItem(query.schema, item));
}

async function fetchKeys(stream: Stream, limit: number): Promise<void> {
  const names = keyAttributes(stream.partition);
  const result = await db().send(
    new QueryCommand({
      ...stream.base,
      ExpressionAttributeNames: {
        ...stream.base.ExpressionAttributeNames,
        ...Object.fromEntries(names.map((name, index) => [`#k${index}`, name])),
      },
      ProjectionExpression: names.map((_, index) => `#k${index}`).join(', '),
      Limit: limit,
      ExclusiveStartKey: stream.fetchedUpTo ?? stream.consumed,
    }),
  );
  stream.buffer.push(...(result.Items ?? []));
  stream.fetchedUpTo = result.LastEvaluatedKey;
  if (!result.LastEvaluatedKey) stream.exhausted = true;
}

/** The attributes of an ExclusiveStartKey for this partition: the table's key, plus the index's when it is one. */
const keyAttributes = (partition: Partition): string[] => [
  ...new Set([TABLE_KEY.partitionKey, TABLE_KEY.sortKey, partition.partitionKey, partition.sortKey]),
];

const keyOf = (partition: Partition, item: Raw): Raw =>
  Object.fromEntries(keyAttributes(partition).map((name) => [name, item[name]]));

const sortValue = (stream: Stream, item: Raw): string =>
  String(item[stream.partition.sortKey]).slice(stream.partition.sortPrefix?.length ?? 0);
