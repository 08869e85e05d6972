import { AsyncLocalStorage } from 'node:async_hooks';
import { observeDynamoDbCalls } from '../../shared/db/call-observer.ts';
import { roundTrips, type TimedCall } from './dynamodb-rounds.ts';

/**
 * The local stack's per-request DynamoDB meter (in-process mode only): every call a route's handler makes through
 * the shared client is recorded in that invocation's own scope (AsyncLocalStorage, so concurrent requests never mix),
 * and the gateway's answer carries the summary in the `x-local-dynamodb` header:
 *
 * `{"rounds":2,"reads":2,"writes":1,"calls":[["Query","GSI3","FEEDS",0.0,2.1],["BatchGetItem","","POST#1,POST#2",2.3,3.9]]}`
 *
 * Each call is [operation, index ('' for the table), partition keys read or written (comma-separated, deduplicated,
 * cut at 200 characters), start and end in ms since the handler began]. The authorizer runs outside the scope, so
 * the figures are "after the authorizer". Calls made after the handler answered (none should be) are not counted.
 * Deployed functions never load this module: the cloud has no such header.
 */
export const METER_HEADER = 'x-local-dynamodb';

export interface MeteredCall extends TimedCall {
  readonly index: string;
  readonly partitions: readonly string[];
}

interface Scope {
  readonly origin: number;
  readonly calls: MeteredCall[];
}

const scopes = new AsyncLocalStorage<Scope>();
let installed = false;

/** Registers the observer once per process (the in-process local stack calls it at start). */
export function installDynamoDbMeter(): void {
  if (installed) return;
  installed = true;
  observeDynamoDbCalls(async (call, send) => {
    const scope = scopes.getStore();
    if (!scope) return send();
    const start = performance.now() - scope.origin;
    try {
      return await send();
    } finally {
      scope.calls.push({
        operation: call.operation,
        index: typeof call.input.IndexName === 'string' ? call.input.IndexName : '',
        partitions: partitionsOf(call.input),
        start,
        end: performance.now() - scope.origin,
      });
    }
  });
}

/** Runs one invocation in a scope of its own and answers its result with the calls it made. */
export async function metered<T>(run: () => Promise<T>): Promise<{ value: T; calls: MeteredCall[] }> {
  const scope: Scope = { origin: performance.now(), calls: [] };
  const value = await scopes.run(scope, run);
  return { value, calls: [...scope.calls] };
}

/** The header's compact JSON, kept under 8 KB (HTTP clients refuse heads over 16 KB). */
export function meterHeader(calls: readonly MeteredCall[]): string {
  const summary = roundTrips(calls);
  const listed = [...calls]
    .sort((a, b) => a.start - b.start)
    .map((call) => [
      call.operation,
      call.index,
      call.partitions.join(',').slice(0, 200),
      round(call.start),
      round(call.end),
    ]);
  let shown = listed;
  let text = JSON.stringify({ ...summary, calls: shown });
  while (text.length > 8000 && shown.length > 0) {
    shown = shown.slice(0, -1);
    text = JSON.stringify({ ...summary, calls: shown, more: listed.length - shown.length });
  }
  return text;
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** The partition keys a call names: its Key/Item, each key of a batch or transaction, or its key condition. */
export function partitionsOf(input: Readonly<Record<string, unknown>>): string[] {
  const found = new Set<string>();
  const addKey = (value: unknown) => {
    const pk = (value as { pk?: unknown } | undefined)?.pk;
    if (typeof pk === 'string') found.add(pk);
  };
  addKey(input.Key);
  addKey(input.Item);
  for (const action of (input.TransactItems as Record<string, Record<string, unknown>>[] | undefined) ?? []) {
    for (const operation of Object.values(action)) {
      addKey(operation.Key);
      addKey(operation.Item);
    }
  }
  for (const request of Object.values((input.RequestItems as Record<string, unknown>) ?? {})) {
    if (Array.isArray(request)) {
      for (const write of request as Record<string, { Key?: unknown; Item?: unknown }>[]) {
        addKey(write.PutRequest?.Item);
        addKey(write.DeleteRequest?.Key);
      }
    } else for (const key of (request as { Keys?: unknown[] }).Keys ?? []) addKey(key);
  }
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  if (typeof input.KeyConditionExpression === 'string' && values) {
    // The partition key's equality is the condition's first `= :value` (keyCondition in shared/db/partition.ts).
    const match = /=\s*(:[A-Za-z0-9_]+)/.exec(input.KeyConditionExpression);
    const value = match ? values[match[1] as string] : undefined;
    if (typeof value === 'string') found.add(value);
  }
  return [...found];
}
