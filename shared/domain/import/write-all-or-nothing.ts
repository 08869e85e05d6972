import { tableName } from '../../db/client.ts';
import { failedConditionIndexes } from '../../db/errors.ts';
import {
  MAX_TRANSACTION_ACTIONS,
  type TransactAction as TransactItem,
  transactWrite as transact,
} from '../../db/transact.ts';
import { ImportError } from './import-error.ts';
import type { ImportWrites } from './import-writes.ts';

interface Action {
  readonly write: TransactItem;
  readonly undo: TransactItem;
  readonly label: string;
}

/**
 * Writes the import in transactions of at most 100 actions (and under the 4 MB request cap): guards first (usernames, e-mails, slugs, each with
 * `attribute_not_exists`), so a login or slug taken by a concurrent create since the check aborts before any
 * entity is written; then the entities; then the counters. A file that fits one transaction is one transaction.
 * When a later transaction fails, every earlier one is undone (compensation: delete what was put, subtract what
 * was added), so the import leaves nothing behind either way.
 */
export async function writeAllOrNothing(writes: ImportWrites): Promise<void> {
  const actions = planActions(writes);
  const batches = intoBatches(actions);
  for (let done = 0; done < batches.length; done++) {
    const batch = batches[done]!;
    try {
      await transact(batch.map((action) => action.write));
    } catch (error) {
      await compensate(batches.slice(0, done));
      const failed = failedConditionIndexes(error);
      if (failed.length > 0) {
        const names = failed.map((index) => batch[index]?.label ?? '?').join('; ');
        throw new ImportError(`${names}: taken by a concurrent change while importing; nothing was imported`);
      }
      throw error;
    }
  }
}

/** A transaction also has a 4 MB cap; long messages (15 000 characters plus their HTML) can reach it first. */
const MAX_TRANSACTION_BYTES = 3_500_000;

function intoBatches(actions: readonly Action[]): Action[][] {
  const batches: Action[][] = [];
  let current: Action[] = [];
  let bytes = 0;
  for (const action of actions) {
    const size = Buffer.byteLength(JSON.stringify(action.write), 'utf8');
    if (
      current.length === MAX_TRANSACTION_ACTIONS ||
      (current.length > 0 && bytes + size > MAX_TRANSACTION_BYTES)
    ) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(action);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function planActions(writes: ImportWrites): Action[] {
  const table = tableName();
  const puts = [...writes.items].sort((a, b) => Number(b.guard) - Number(a.guard));
  const actions: Action[] = puts.map(({ item, label }) => ({
    label,
    write: { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    undo: { Delete: { TableName: table, Key: { pk: item.pk, sk: item.sk } } },
  }));
  for (const counter of writes.counters.values()) {
    const entries = Object.entries(counter.deltas);
    if (counter.base) {
      actions.push({
        label: `${counter.key.pk} ${counter.key.sk}`,
        write: {
          Put: {
            TableName: table,
            Item: { ...counter.base, ...Object.fromEntries(entries), ...counter.key },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        undo: { Delete: { TableName: table, Key: counter.key } },
      });
      continue;
    }
    const nonZero = entries.filter(([, amount]) => amount !== 0);
    if (nonZero.length === 0) continue;
    actions.push({
      label: `${counter.key.pk} ${counter.key.sk}`,
      write: addUpdate(counter.key, nonZero, 1),
      undo: counter.deleteOnUndo
        ? { Delete: { TableName: table, Key: counter.key } }
        : addUpdate(counter.key, nonZero, -1),
    });
  }
  return actions;
}

function addUpdate(key: { pk: string; sk: string }, entries: [string, number][], sign: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(
        entries.map(([, amount], i) => [`:c${i}`, sign * amount]),
      ),
    },
  };
}

/** Undoes committed batches, newest first; each undo batch is itself one transaction (the opposite ADDs apply once). */
async function compensate(committed: Action[][]): Promise<void> {
  for (const batch of [...committed].reverse()) {
    await transact(batch.map((action) => action.undo));
  }
}
