/**
 * What one request's DynamoDB calls cost in round trips (pure; the meter in dynamodb-meter.ts feeds it).
 *
 * Serial rounds: the longest chain of calls each of which started after the previous one ended. Calls that overlap
 * in time (a `Promise.all`) are one round; a call started after another ended is a new round even when a third,
 * longer call overlaps both (it could have waited for the first). Computed greedily by earliest end, which gives
 * the longest such chain (the maximum set of pairwise disjoint intervals).
 */
export type CallKind = 'read' | 'write' | 'other';

export interface TimedCall {
  readonly operation: string;
  /** Milliseconds, any common origin. */
  readonly start: number;
  readonly end: number;
}

const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export function callKind(operation: string): CallKind {
  if (READS.has(operation)) return 'read';
  if (WRITES.has(operation)) return 'write';
  return 'other';
}

export function serialRounds(calls: readonly Pick<TimedCall, 'start' | 'end'>[]): number {
  const byEnd = [...calls].sort((a, b) => a.end - b.end || a.start - b.start);
  let rounds = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const call of byEnd) {
    if (call.start >= lastEnd) {
      rounds++;
      lastEnd = call.end;
    }
  }
  return rounds;
}

export interface RoundTrips {
  readonly rounds: number;
  readonly reads: number;
  readonly writes: number;
}

export function roundTrips(calls: readonly TimedCall[]): RoundTrips {
  return {
    rounds: serialRounds(calls),
    reads: calls.filter((call) => callKind(call.operation) === 'read').length,
    writes: calls.filter((call) => callKind(call.operation) === 'write').length,
  };
}
