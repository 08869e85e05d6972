import { db } from '../../../shared/db/client.ts';

/**
 * Counts the items this process writes through the shared DocumentClient (the local stack runs the workers in
 * this process): one per Put/Update/Delete, one per action of a TransactWriteItems, one per request of a
 * BatchWriteItem that DynamoDB processed (unprocessed ones are counted when retried). Also sums the JSON size of
 * every put item, so a baseline can write items of the same average size.
 */
export function meterItemWrites() {
  let items = 0;
  let putItems = 0;
  let putBytes = 0;
  const sizeOf = (item: unknown) => {
    putItems++;
    putBytes += JSON.stringify(item).length;
  };
  db().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const result = await next(args);
      if (Array.isArray(input.TransactItems)) {
        items += input.TransactItems.length;
        for (const action of input.TransactItems as { Put?: { Item: unknown } }[])
          if (action.Put) sizeOf(action.Put.Item);
      } else if (input.RequestItems && !('Keys' in Object.values(input.RequestItems)[0]!)) {
        const requests = Object.values(input.RequestItems as Record<string, unknown[]>).flat();
        const left = Object.values(
          ((result.output as { UnprocessedItems?: Record<string, unknown[]> }).UnprocessedItems ??
            {}) as Record<string, unknown[]>,
        ).flat().length;
        items += requests.length - left;
        for (const request of requests as { PutRequest?: { Item: unknown } }[])
          if (request.PutRequest) sizeOf(request.PutRequest.Item);
      } else if ('Item' in input) {
        items += 1;
        sizeOf(input.Item);
      } else if ('UpdateExpression' in input) items += 1;
      return result;
    },
    { step: 'initialize', name: 'benchItemWriteMeter' },
  );
  return {
    reset() {
      items = 0;
      putItems = 0;
      putBytes = 0;
    },
    /** Items written since the last reset. */
    items: () => items,
    /** Average JSON size of the items put since the last reset (bytes). */
    averagePutBytes: () => (putItems === 0 ? 0 : Math.round(putBytes / putItems)),
  };
}
