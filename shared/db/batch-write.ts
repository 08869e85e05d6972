import { BatchWriteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { isConditionalCheckFailed } from './errors.ts';
import type { ItemKey } from './partition.ts';
import type { TransactAction } from './transact.ts';

/** DynamoDB's limit of requests per BatchWriteItem. */
export const MAX_BATCH_WRITE = 25;
const MAX_ATTEMPTS = 10;

/**
 * Plain puts, no conditions, no atomicity across items: BatchWriteItem in batches of 25, `parallel` batches in
 * flight at once, UnprocessedItems retried with exponential backoff. Only for writes that are idempotent by
 * construction (the same key always gets the same content, e.g. a migration chunk rewritten on redelivery): a
 * caller that needs a condition or several items moving together uses transact.ts. An item key must appear at
 * most once in one call (DynamoDB rejects a batch naming a key twice).
 */
export async function putItemsInBatches(
  items: readonly (Record<string, unknown> & ItemKey)[],
  options: { parallel?: number } = {},
): Promise<void> {
  const batches: (Record<string, unknown> & ItemKey)[][] = [];
  for (let start = 0; start < items.length; start += MAX_BATCH_WRITE)
    batches.push(items.slice(start, start + MAX_BATCH_WRITE));
  let next = 0;
  const lanes = Array.from(
    { length: Math.max(1, Math.min(options.parallel ?? 4, batches.length)) },
    async () => {
      while (next < batches.length) await writeBatch(batches[next++]!);
    },
  );
  await Promise.all(lanes);
}

async function writeBatch(items: readonly Record<string, unknown>[]): Promise<void> {
  let pending: Record<string, unknown>[] = items.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed`);
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
    const result = await db().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }),
    );
    pending = (result.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
  }
}

/**
 * Single-item updates, `parallel` at a time, each on its own (no atomicity across them): for idempotent in-place
 * changes (SET of values the caller determines) that may be repeated. An update whose condition fails (e.g.
 * `attribute_exists(pk)` on an item deleted meanwhile) is left undone; answers how many were.
 */
export async function updateItemsInParallel(
  actions: readonly TransactAction[],
  options: { parallel?: number } = {},
): Promise<number> {
  let next = 0;
  let refused = 0;
  const lanes = Array.from(
    { length: Math.max(1, Math.min(options.parallel ?? 4, actions.length)) },
    async () => {
      while (next < actions.length) {
        const update = actions[next++]!.Update;
        if (!update) throw new Error('updateItemsInParallel takes Update actions only');
        try {
          await db().send(new UpdateCommand(update as UpdateCommandInput));
        } catch (error) {
          if (!isConditionalCheckFailed(error)) throw error;
          refused += 1;
        }
      }
    },
  );
  await Promise.all(lanes);
  return refused;
}
