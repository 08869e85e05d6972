import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { counterUpdate } from '../../db/counters.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
import { importBatches, importBatchKey, importJournalKey, importJournals } from '../../db/keys/imports.ts';
import type { ItemKey } from '../../db/partition.ts';
import { getItem, queryItems } from '../../db/reads.ts';
import {
  conditionCheckAction,
  deleteAction,
  putAction,
  type TransactAction,
  type TransactOutcome,
  transactWrite,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';
import {
  type ImportBatchItem,
  ImportBatchItemSchema,
  type ImportJournalItem,
  ImportJournalItemSchema,
  type ImportStatus,
  storedImportBatch,
  storedImportJournal,
  type UndoStep,
} from './import-journal-item.ts';

/**
 * The import's write-ahead log, one method per access pattern (ACCESS_PATTERNS.md §13): the journal of each
 * unfinished import in the `IMPORTS` partition, and one marker per committed batch in the import's own partition.
 */

export async function openImportJournal(journal: ImportJournalItem): Promise<void> {
  await transactWrite([putAction(storedImportJournal(journal), { ifAbsent: true })]);
}

/** Every unfinished import (a consistent Query of one small partition). */
export function findImportJournals(): Promise<ImportJournalItem[]> {
  return queryItems(importJournals(), ImportJournalItemSchema, { consistent: true });
}

export function findImportJournal(importId: string): Promise<ImportJournalItem | undefined> {
  return getItem(importJournalKey(importId), ImportJournalItemSchema, { consistent: true });
}

/**
 * Moves the journal to `to` when its status is one of `from`; answers whether it did. This is how the owner
 * commits (`writing` → `committed`) and how a rollback fences the owner off (`writing` → `rolling_back`).
 */
export async function changeImportStatus(
  importId: string,
  from: readonly ImportStatus[],
  to: ImportStatus,
): Promise<boolean> {
  return updateJournal(importId, from, 'SET #status = :to', { ':to': to });
}

/** The owner's sign of life; refused (false) once the import is no longer `writing`. */
export function touchImportJournal(importId: string, at: string): Promise<boolean> {
  return updateJournal(importId, ['writing'], 'SET heartbeat_at = :at', { ':at': at });
}

async function updateJournal(
  importId: string,
  from: readonly ImportStatus[],
  update: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  const allowed = Object.fromEntries(from.map((status, index) => [`:from${index}`, status]));
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: importJournalKey(importId),
        UpdateExpression: update,
        ConditionExpression: `#status IN (${Object.keys(allowed).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...values, ...allowed },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/**
 * Commits one batch: its actions, a check that the journal is still `writing` (a rollback may have taken the
 * import over), and the batch's marker with its undo, all in one transaction. When a condition fails nothing is
 * written; `failed` indexes the batch's own actions, `actions.length` for the journal check.
 */
export function writeImportBatch(
  importId: string,
  batchNo: number,
  actions: readonly TransactAction[],
  undo: readonly UndoStep[],
): Promise<TransactOutcome> {
  return transactWriteIfConditionsHold([
    ...actions,
    conditionCheckAction(importJournalKey(importId), {
      ConditionExpression: '#status = :writing',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':writing': 'writing' },
    }),
    putAction(storedImportBatch({ import_id: importId, batch: batchNo, undo: [...undo] }), {
      ifAbsent: true,
    }),
  ]);
}

/** The newest committed batch of an import, or undefined when none is left. */
export async function findNewestImportBatch(importId: string): Promise<ImportBatchItem | undefined> {
  const [newest] = await queryItems(importBatches(importId), ImportBatchItemSchema, {
    ascending: false,
    limit: 1,
    consistent: true,
  });
  return newest;
}

export type UndoOutcome =
  | { readonly undone: true }
  /** Another rollback undid this batch first (its marker was gone). */
  | { readonly undone: false; readonly alreadyUndone: true }
  /** These steps' items changed since the import; nothing was written. */
  | { readonly undone: false; readonly alreadyUndone: false; readonly blocked: UndoStep[] };

/**
 * Applies a batch's undo and deletes its marker in one transaction, on the condition that the marker still
 * exists: a crash during a rollback leaves every batch either fully undone (marker gone) or untouched, and two
 * rollbacks never undo a batch twice. Counters move back with `counterUpdate`, so they can never go negative.
 */
export async function undoImportBatch(batch: ImportBatchItem): Promise<UndoOutcome> {
  const actions = [
    ...batch.undo.map(undoAction),
    deleteAction(importBatchKey(batch.import_id, batch.batch), {
      ConditionExpression: 'attribute_exists(pk)',
    }),
  ];
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return { undone: true };
  if (outcome.failed.includes(batch.undo.length)) return { undone: false, alreadyUndone: true };
  return {
    undone: false,
    alreadyUndone: false,
    // The undo entries whose actions were refused (the entries and the actions share their indexes).
    blocked: batch.undo.filter((_, index) => outcome.failed.includes(index)),
  };
}

function undoAction(step: UndoStep): TransactAction {
  const key: ItemKey = { pk: step.pk, sk: step.sk };
  if (step.op === 'subtract') {
    return counterUpdate(
      key,
      Object.fromEntries(Object.entries(step.deltas).map(([name, amount]) => [name, -amount])),
    );
  }
  const unchanged = Object.entries(step.unchanged ?? {});
  if (unchanged.length === 0) return deleteAction(key);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions = unchanged.map(([name, value], index) => {
    names[`#u${index}`] = name;
    values[`:u${index}`] = value === null ? 'NULL' : value;
    return value === null ? `attribute_type(#u${index}, :u${index})` : `#u${index} = :u${index}`;
  });
  return deleteAction(key, {
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/**
 * Removes a committed import's log: its markers (transactions of deletes), then its journal. Only a `committed`
 * import's markers may go without their undo being applied.
 */
export async function removeCommittedImportLog(importId: string): Promise<void> {
  const journal = await findImportJournal(importId);
  if (!journal) return;
  if (journal.status !== 'committed')
    throw new Error(`Import ${importId} is ${journal.status}, not committed`);
  for (;;) {
    const markers = await queryItems(importBatches(importId), ImportBatchItemSchema, {
      consistent: true,
      limit: 100,
    });
    if (markers.length === 0) break;
    await transactWrite(markers.map((marker) => deleteAction(importBatchKey(importId, marker.batch))));
  }
  await deleteJournalIn(importId, 'committed');
}

/** Removes the journal of an import whose batches have all been undone (no-op if another rollback did). */
export function removeRolledBackImportJournal(importId: string): Promise<void> {
  return deleteJournalIn(importId, 'rolling_back');
}

async function deleteJournalIn(importId: string, status: ImportStatus): Promise<void> {
  await transactWriteIfConditionsHold([
    deleteAction(importJournalKey(importId), {
      ConditionExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
    }),
  ]);
}
