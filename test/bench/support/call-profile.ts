import { observeDynamoDbCalls } from '../../../shared/db/call-observer.ts';

interface OperationFigures {
  calls: number;
  /** Items written (puts, updates, deletes, transaction actions) or keys asked (batch reads). */
  items: number;
  /** Summed time the calls of this operation were in flight, in ms. */
  busyMs: number;
}

/**
 * Where a run's DynamoDB time goes: per operation, how many calls this process sent, how many items they named
 * (a BatchWriteItem's requests, a TransactWriteItems' actions, a BatchGetItem's keys) and how long they were in
 * flight, summed. A benchmark compares a run's figures with a bare loop's; `stop()` ends the observation.
 */
export function profileDynamoDbCalls() {
  const figures = new Map<string, OperationFigures>();
  const stop = observeDynamoDbCalls(async (call, send) => {
    const started = performance.now();
    try {
      return await send();
    } finally {
      const entry = figures.get(call.operation) ?? { calls: 0, items: 0, busyMs: 0 };
      entry.calls += 1;
      entry.items += itemsOf(call.input);
      entry.busyMs += performance.now() - started;
      figures.set(call.operation, entry);
    }
  });
  return {
    stop,
    /** One line per operation, busiest first. */
    lines: (): string[] =>
      [...figures]
        .sort(([, a], [, b]) => b.busyMs - a.busyMs)
        .map(
          ([operation, f]) =>
            `${operation}: ${f.calls} calls, ${f.items} items, ${(f.busyMs / 1000).toFixed(1)} s in flight (${(f.busyMs / f.calls).toFixed(1)} ms each)`,
        ),
  };
}

function itemsOf(input: Readonly<Record<string, unknown>>): number {
  if (Array.isArray(input.TransactItems)) return input.TransactItems.length;
  const requests = input.RequestItems;
  if (requests && typeof requests === 'object')
    return Object.values(requests as Record<string, unknown>).reduce<number>(
      (sum, value) =>
        sum +
        (Array.isArray(value)
          ? value.length
          : Array.isArray((value as { Keys?: unknown[] }).Keys)
            ? ((value as { Keys: unknown[] }).Keys.length ?? 0)
            : 0),
      0,
    );
  return 1;
}
