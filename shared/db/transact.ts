import {
  type DeleteCommandInput,
  type PutCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { failedConditionIndexes, isTransactionConflict } from './errors.ts';
import type { ItemKey } from './partition.ts';

/** One action of a TransactWriteItems. */
export type TransactAction = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit of actions per TransactWriteItems; an item may appear in at most one of them. */
export const MAX_TRANSACTION_ACTIONS = 100;

const CONFLICT_RETRIES = 8;

/**
 * TransactWriteItems, retried with jittered backoff while it loses a conflict with another transaction on a shared
 * item (counters many writers move). A failed condition is not retried: it throws for the caller to decide
 * (`transactWriteIfConditionsHold` answers it instead).
 */
export async function transactWrite(actions: readonly TransactAction[]): Promise<void> {
  if (actions.length === 0) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: [...actions] }));
      return;
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * 2 ** attempt));
    }
  }
}

export type TransactOutcome =
  | { readonly written: true }
  | { readonly written: false; readonly failed: number[] };

/**
 * Writes the actions when every condition holds. Otherwise nothing is written and the answer names the indexes of
 * the actions whose condition failed (a concurrent change the caller decides about).
 */
export async function transactWriteIfConditionsHold(
  actions: readonly TransactAction[],
): Promise<TransactOutcome> {
  try {
    await transactWrite(actions);
    return { written: true };
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (failed.length > 0) return { written: false, failed };
    throw error;
  }
}

// ---- Action builders: every action names the one table -----------------------------------------------------

type Condition = Pick<
  PutCommandInput,
  'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;

/** Put an item; `ifAbsent` adds `attribute_not_exists(pk)` (creation, uniqueness guards). */
export function putAction(
  item: Record<string, unknown> & ItemKey,
  options: { ifAbsent?: boolean; condition?: Condition } = {},
): TransactAction {
  const condition = options.ifAbsent
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : options.condition;
  return { Put: { TableName: tableName(), Item: item, ...condition } };
}

export function deleteAction(key: ItemKey, condition?: Condition): TransactAction {
  return { Delete: { TableName: tableName(), Key: key, ...(condition as Partial<DeleteCommandInput>) } };
}

export function updateAction(
  key: ItemKey,
  update: Pick<
    UpdateCommandInput,
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): TransactAction {
  return { Update: { TableName: tableName(), Key: key, ...update } } as TransactAction;
}

export function conditionCheckAction(
  key: ItemKey,
  condition: Required<Pick<Condition, 'ConditionExpression'>> & Condition,
): TransactAction {
  return { ConditionCheck: { TableName: tableName(), Key: key, ...condition } } as TransactAction;
}

/** Cancels the transaction unless the item exists (a post, comment or topic the write depends on). */
export const existsCheck = (key: ItemKey): TransactAction =>
  conditionCheckAction(key, { ConditionExpression: 'attribute_exists(pk)' });

/**
 * Puts `items` in one transaction on the condition that the item at `key` still has the `updated_at` they were
 * built from (the `storage:upgrade` steps that write items derived from another: a change of it meanwhile writes
 * them itself); answers whether they were written.
 */
export async function putsIfUnchangedSince(
  key: ItemKey,
  updatedAt: string,
  items: readonly (Record<string, unknown> & ItemKey)[],
): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([
    conditionCheckAction(key, {
      ConditionExpression: 'updated_at = :seen',
      ExpressionAttributeValues: { ':seen': updatedAt },
    }),
    ...items.map((item) => putAction(item)),
  ]);
  return outcome.written;
}
