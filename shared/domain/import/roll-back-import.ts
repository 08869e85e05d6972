import type { UndoStep } from './import-journal-item.ts';
import {
  changeImportStatus,
  findImportJournal,
  findNewestImportBatch,
  removeRolledBackImportJournal,
  undoImportBatch,
} from './import-journal-repository.ts';

export type RollbackOutcome =
  | { readonly outcome: 'rolled_back'; readonly batchesUndone: number }
  /** The import reached its commit point first: it is final and is not rolled back. */
  | { readonly outcome: 'committed' }
  /** No such unfinished import (another rollback finished it). */
  | { readonly outcome: 'absent' }
  | { readonly outcome: 'blocked'; readonly batchesUndone: number; readonly message: string };

/**
 * Rolls an unfinished import back. First the journal moves to `rolling_back`, which fences its owner off (every
 * batch checks `writing`); then the committed batches are undone newest first, each in one transaction with the
 * deletion of its marker; last the journal goes. Every step is idempotent, so a crash or a second rollback at
 * any point leaves something the next run finishes, and no batch is ever undone twice.
 */
export async function rollBackImport(importId: string): Promise<RollbackOutcome> {
  if (!(await changeImportStatus(importId, ['writing', 'rolling_back'], 'rolling_back'))) {
    const journal = await findImportJournal(importId);
    return { outcome: journal?.status === 'committed' ? 'committed' : 'absent' };
  }
  let batchesUndone = 0;
  for (;;) {
    const batch = await findNewestImportBatch(importId);
    if (!batch) break;
    const result = await undoImportBatch(batch);
    if (result.undone) batchesUndone += 1;
    else if (!result.alreadyUndone) {
      return {
        outcome: 'blocked',
        batchesUndone,
        message: blockedMessage(importId, batch.batch, result.blocked),
      };
    }
  }
  await removeRolledBackImportJournal(importId);
  return { outcome: 'rolled_back', batchesUndone };
}

function blockedMessage(importId: string, batchNo: number, steps: readonly UndoStep[]): string {
  const items = steps
    .slice(0, 5)
    .map((step) =>
      step.op === 'delete'
        ? `${step.pk} ${step.sk} changed since it was imported (${Object.keys(step.unchanged ?? {}).join(', ')})`
        : `${step.pk} ${step.sk} counters are lower than the import added (${Object.keys(step.deltas).join(', ')})`,
    );
  const more = steps.length > 5 ? `; and ${steps.length - 5} more` : '';
  return (
    `import ${importId}, batch ${batchNo}: users changed imported items before the rollback, so undoing the ` +
    `batch would leave counters wrong; nothing of the batch was undone: ${items.join('; ')}${more}`
  );
}
