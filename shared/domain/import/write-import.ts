import { randomBytes } from 'node:crypto';
import { transactWriteIfConditionsHold } from '../../db/transact.ts';
import { nowIso } from '../dates.ts';
import { ImportError, ImportInterrupted } from './import-error.ts';
import {
  changeImportStatus,
  openImportJournal,
  removeCommittedImportLog,
  touchImportJournal,
  writeImportBatch,
} from './import-journal-repository.ts';
import { currentOwner, HEARTBEAT_INTERVAL_MS } from './import-owner.ts';
import type { ImportPlan } from './import-plan.ts';
import { type PlannedBatch, planBatches } from './plan-batches.ts';
import { rollBackImport } from './roll-back-import.ts';

/**
 * Writes an import all or nothing, even across a crash of this process or of the database.
 *
 * A plan that fits one transaction is one TransactWriteItems: atomic by itself, no log needed. A larger one is
 * written under a journal (a write-ahead log): first the journal (`writing`, this process as owner, a heartbeat),
 * then each batch in one transaction together with a check that the journal is still `writing` and a marker that
 * carries the batch's undo; then the journal moves to `committed`, which is the commit point; last the markers and
 * the journal are removed. Every batch carries its entities with the counter deltas they cause, so each committed
 * point is consistent. If anything fails before the commit point, the batches committed so far are undone here;
 * if that cannot happen (the process or the database died), the journal tells the next recovery what to undo.
 *
 * `items` (count per section) is recorded in the journal for operators.
 */
export async function writeImport(plan: ImportPlan, items: Record<string, number>): Promise<void> {
  const batches = planBatches(plan);
  const [first, ...others] = batches;
  if (first === undefined) return;
  if (others.length === 0) {
    const outcome = await transactWriteIfConditionsHold(first.actions);
    if (!outcome.written) throw concurrentChange(first, outcome.failed);
    return;
  }

  const importId = newImportId();
  const startedAt = nowIso();
  await openImportJournal({
    import_id: importId,
    status: 'writing',
    ...currentOwner(),
    started_at: startedAt,
    heartbeat_at: startedAt,
    batches: batches.length,
    items,
  });
  const heartbeat = setInterval(() => {
    touchImportJournal(importId, nowIso()).catch(() => undefined);
  }, HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();
  try {
    for (const [index, batch] of batches.entries()) {
      const outcome = await writeImportBatch(importId, index + 1, batch.actions, batch.undo);
      if (outcome.written) continue;
      if (outcome.failed.includes(batch.actions.length))
        throw new Error('a recovery took the import over (its owner was taken to be gone)');
      throw concurrentChange(batch, outcome.failed);
    }
    if (!(await changeImportStatus(importId, ['writing'], 'committed')))
      throw new Error('a recovery took the import over before it could commit');
  } catch (error) {
    clearInterval(heartbeat);
    const rollback = await rollBackImport(importId).catch(() => undefined);
    // The commit's answer was lost but it had been written: the import is final after all.
    if (rollback?.outcome !== 'committed') {
      const rolledBack = rollback?.outcome === 'rolled_back' || rollback?.outcome === 'absent';
      if (error instanceof ImportError && rolledBack) throw error;
      throw new ImportInterrupted(importId, rolledBack, error);
    }
  } finally {
    clearInterval(heartbeat);
  }
  // Committed: the import is final. What is left of its log is removed here, or by the next recovery.
  await removeCommittedImportLog(importId).catch(() => undefined);
}

/** A guard (login, e-mail, slug) taken by a concurrent create since the checks. */
function concurrentChange(batch: PlannedBatch, failed: readonly number[]): ImportError {
  const names = [...new Set(failed.map((index) => batch.labels[index] ?? '?'))].join('; ');
  return new ImportError(`${names}: taken by a concurrent change while importing; nothing was imported`);
}

/** Sortable by start time, unique by its random tail: `20260102T030405Z-1a2b3c4d`. */
const newImportId = (): string =>
  `${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}-${randomBytes(4).toString('hex')}`;
