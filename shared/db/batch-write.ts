import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { isConditionalCheckFailed } from './errors.ts';
import type { ItemKey } from './partition.ts';
import type { TransactAction } from './transact.ts';

/** DynamoDB's limit of requests per BatchWriteItem. */
export const MAX_BATCH_WRITE = 25;
const MAX_ATTEMPTS = 10;

/** One put or delete of a BatchWriteItem, as the document client takes it (and answers it back unprocessed). */
type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** Runs `work` on every item, at most `parallel` at a time (each lane takes the next item when it is free). */
export async function inLanes<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>) {
  const queue = items.values();
  const lane = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) await work(next.value);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, lane));
}

/** Consecutive slices of at most `size` items. */
const slices = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );

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
  const batches = slices(
    items.map((Item): WriteRequest => ({ PutRequest: { Item } })),
    MAX_BATCH_WRITE,
  );
  await inLanes(batches, options.parallel ?? 4, writeBatch);
}

/**
 * Plain deletes, no conditions: BatchWriteItem in batches of 25, one at a time, UnprocessedItems retried with
 * backoff. For items nothing else counts (a tidy-up of what a watermark already hides).
 */
export async function deleteItemsInBatches(keys: readonly ItemKey[]): Promise<void> {
  for (const batch of slices(
    keys.map((Key): WriteRequest => ({ DeleteRequest: { Key } })),
    MAX_BATCH_WRITE,
  ))
    await writeBatch(batch);
}

async function writeBatch(requests: readonly WriteRequest[]): Promise<void> {
  let pending = requests;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed`);
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
    const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: [...pending] } }));
    pending = result.UnprocessedItems?.[tableName()] ?? [];
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
  let refused = 0;
  await inLanes(actions, options.parallel ?? 4, async (action) => {
    const update = action.Update;
    if (!update) throw new Error('updateItemsInParallel takes Update actions only');
    try {
      await db().send(new UpdateCommand(update as UpdateCommandInput));
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      refused += 1;
    }
  });
  return refused;
}
