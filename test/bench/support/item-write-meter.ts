import { db } from '../../../shared/db/client.ts';

/**
 * Counts the items this process writes through the shared DocumentClient (the local stack runs the workers in
 * this process): one per Put/Update/Delete, one per action of a TransactWriteItems, one per request of a
 * BatchWriteItem that DynamoDB processed (unprocessed ones are counted when retried).
 */
export function meterItemWrites() {
  let items = 0;
  db().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const result = await next(args);
      if (Array.isArray(input.TransactItems)) {
        items += input.TransactItems.length;
      } else if (input.RequestItems && !('Keys' in Object.values(input.RequestItems)[0]!)) {
        const requests = Object.values(input.RequestItems as Record<string, unknown[]>).flat();
        const left = Object.values(
          ((result.output as { UnprocessedItems?: Record<string, unknown[]> }).UnprocessedItems ??
            {}) as Record<string, unknown[]>,
        ).flat().length;
        items += requests.length - left;
      } else if ('Item' in input || 'UpdateExpression' in input) items += 1;
      return result;
    },
    { step: 'initialize', name: 'benchItemWriteMeter' },
  );
  return {
    /** Items written so far. */
    items: () => items,
  };
}
