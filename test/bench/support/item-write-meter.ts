import { db } from '../../../shared/db/client.ts';

type Written = { Item?: Record<string, unknown>; Key?: Record<string, unknown> };

/** What kind of item a write names: its `entity`, else its partition key's first segment (`USER#7` → `USER`). */
function kindOf(write: Written | undefined): string {
  const item = write?.Item ?? write?.Key ?? {};
  if (typeof item.entity === 'string') return item.entity;
  const pk = typeof item.pk === 'string' ? item.pk : '?';
  return pk.split('#')[0] ?? pk;
}

/**
 * Counts the items this process writes through the shared DocumentClient (the local stack runs the workers in
 * this process): one per Put/Update/Delete, one per action of a TransactWriteItems, one per request of a
 * BatchWriteItem that DynamoDB processed (unprocessed ones are counted when retried); and per kind of item
 * (`kindOf`) and way of writing, so the items a run writes beyond its targets can be named.
 */
export function meterItemWrites() {
  let items = 0;
  const kinds = new Map<string, number>();
  const count = (how: string, write: Written | undefined) => {
    const kind = `${kindOf(write)} (${how})`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  };
  db().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const result = await next(args);
      if (Array.isArray(input.TransactItems)) {
        items += input.TransactItems.length;
        for (const action of input.TransactItems as Record<string, Written>[])
          count('transaction', action.Put ?? action.Update ?? action.Delete ?? action.ConditionCheck);
      } else if (input.RequestItems && !('Keys' in Object.values(input.RequestItems)[0]!)) {
        const requests = Object.values(
          input.RequestItems as Record<string, { PutRequest?: Written; DeleteRequest?: Written }[]>,
        ).flat();
        const left = Object.values(
          ((result.output as { UnprocessedItems?: Record<string, unknown[]> }).UnprocessedItems ??
            {}) as Record<string, unknown[]>,
        ).flat().length;
        items += requests.length - left;
        // Unprocessed requests are rare (the emulator never answers them): counted by kind as sent.
        for (const request of requests) count('batch', request.PutRequest ?? request.DeleteRequest);
      } else if ('Item' in input || 'UpdateExpression' in input) {
        items += 1;
        count('single', input as Written);
      }
      return result;
    },
    { step: 'initialize', name: 'benchItemWriteMeter' },
  );
  return {
    /** Items written so far. */
    items: () => items,
    /** `kind (how): count` lines, most first. */
    kinds: () => [...kinds].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind}: ${n}`),
  };
}
