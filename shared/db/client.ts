import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from '../config/env.ts';
import { hasCallObservers, observed } from './call-observer.ts';
import { readMeter, writeMeter } from './read-meter.ts';

let documentClient: DynamoDBDocumentClient | undefined;

const READ_COMMANDS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);

/**
 * Writes whose units the meter counts. Not BatchWriteItem: the bulk writers (migration chunks, tidy workers,
 * benchmark fills) are never measured per request, and DynamoDB Local spends about a quarter of a 25-item batch
 * working out its capacity (measured: a migration's activities phase 43 s with it, 32 s without).
 */
const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
]);

type Capacity = { CapacityUnits?: number } | undefined;

/**
 * One DocumentClient per process, created on first use (not at import, so tests can set the environment first).
 * The SDK keeps TCP connections alive by default, which is most of a warm call's latency. Every read asks for its
 * consumed capacity (free of charge) and so does every single-item or transactional write; both go to the meters,
 * so cost is measured in one place, not in domain code.
 */
export function db(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { DYNAMODB_ENDPOINT, AWS_REGION } = env();
    const client = new DynamoDBClient({
      region: AWS_REGION,
      ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}),
      maxAttempts: 4,
    });
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const command = context.commandName ?? '';
        const meter = READ_COMMANDS.has(command)
          ? readMeter
          : WRITE_COMMANDS.has(command)
            ? writeMeter
            : undefined;
        if (!meter) return next(args);
        const input = args.input as { ReturnConsumedCapacity?: string };
        input.ReturnConsumedCapacity ??= 'TOTAL';
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
        for (const entry of Array.isArray(consumed) ? consumed : [consumed]) meter.add(entry?.CapacityUnits);
        return result;
      },
      { step: 'initialize', name: 'capacityMeter' },
    );
    // Measuring tools of the local stack and benchmarks (call-observer.ts); none is registered in the cloud.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!hasCallObservers()) return next(args);
        let result: Awaited<ReturnType<typeof next>> | undefined;
        const operation = (context.commandName ?? '').replace(/Command$/, '');
        await observed({ operation, input: args.input as Record<string, unknown> }, async () => {
          result = await next(args);
          return result.output as unknown as Record<string, unknown>;
        });
        return result as Awaited<ReturnType<typeof next>>;
      },
      { step: 'initialize', name: 'callObserver', priority: 'high' },
    );
    // The SDK's logger middleware copies every input and output through a sensitive-data filter on each call,
    // for a logger we never give it: for a 25-item batch that is most of the client's own CPU.
    client.middlewareStack.remove('loggerMiddleware');
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return documentClient;
}

export const tableName = (): string => env().TABLE_NAME;

/** Forget the client (tests that point the process at another endpoint). */
export function resetDbClient(): void {
  documentClient = undefined;
}
