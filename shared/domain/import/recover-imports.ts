import type { ImportJournalItem } from './import-journal-item.ts';
import { findImportJournals, removeCommittedImportLog } from './import-journal-repository.ts';
import { isOwnerGone } from './import-owner.ts';
import { rollBackImport } from './roll-back-import.ts';

/** What a recovery did with one unfinished import (the `import:recover` output). */
export interface ImportRecovery {
  readonly import_id: string;
  readonly started_at: string;
  /** `host:pid` of the process that wrote it. */
  readonly owner: string;
  /** Its journal's status when the recovery found it. */
  readonly status: ImportJournalItem['status'];
  /**
   * `rolled_back`: its committed batches were undone and its log removed. `cleaned_up`: it had committed; only its
   * log was left. `running`: its owner is alive, so it was left alone. `blocked`: users changed imported items
   * before the rollback; see `message`.
   */
  readonly outcome: 'rolled_back' | 'cleaned_up' | 'running' | 'blocked';
  readonly batches_undone: number;
  readonly duration_ms: number;
  readonly message?: string;
}

/**
 * Finds every unfinished import (one consistent Query of the journal partition) and finishes it: a committed one is
 * cleaned up, one whose owner is gone (dead process on this host, or no heartbeat for two minutes) is rolled back,
 * a running one is left alone. `importId` names one import to roll back even though its owner looks alive (the
 * operator knows better; the owner is fenced off at its next batch). Runs at the start of every `import` command,
 * at `npm start` before it says `ready`, and as `import:recover`; a second run finds nothing left to do.
 */
export async function recoverUnfinishedImports(
  options: { importId?: string } = {},
): Promise<ImportRecovery[]> {
  const journals = (await findImportJournals()).filter(
    (journal) => options.importId === undefined || journal.import_id === options.importId,
  );
  const recoveries: ImportRecovery[] = [];
  for (const journal of journals) {
    recoveries.push(await recoverImport(journal, options.importId !== undefined));
  }
  return recoveries;
}

async function recoverImport(journal: ImportJournalItem, force: boolean): Promise<ImportRecovery> {
  const started = performance.now();
  const report = (
    outcome: ImportRecovery['outcome'],
    batchesUndone = 0,
    message?: string,
  ): ImportRecovery => ({
    import_id: journal.import_id,
    started_at: journal.started_at,
    owner: `${journal.owner_host}:${journal.owner_pid}`,
    status: journal.status,
    outcome,
    batches_undone: batchesUndone,
    duration_ms: Math.round(performance.now() - started),
    ...(message === undefined ? {} : { message }),
  });
  if (journal.status === 'writing' && !force && !isOwnerGone(journal)) return report('running');
  if (journal.status === 'committed') {
    await removeCommittedImportLog(journal.import_id);
    return report('cleaned_up');
  }
  const result = await rollBackImport(journal.import_id);
  switch (result.outcome) {
    case 'rolled_back':
      return report('rolled_back', result.batchesUndone);
    case 'blocked':
      return report('blocked', result.batchesUndone, result.message);
    case 'committed':
      // The owner reached its commit point just before the rollback could fence it off.
      await removeCommittedImportLog(journal.import_id);
      return report('cleaned_up');
    case 'absent':
      return report('rolled_back');
  }
}

/** One line for an operator about what a recovery did. */
export function describeRecovery(recovery: ImportRecovery): string {
  const what = `import ${recovery.import_id} (started ${recovery.started_at} by ${recovery.owner})`;
  switch (recovery.outcome) {
    case 'rolled_back':
      return `Rolled back unfinished ${what}: ${recovery.batches_undone} batches undone in ${recovery.duration_ms} ms.`;
    case 'cleaned_up':
      return `Removed the log of committed ${what}.`;
    case 'running':
      return `Left running ${what} alone.`;
    case 'blocked':
      return `Could not roll back ${what}: ${recovery.message}`;
  }
}

/**
 * Recovers what crashed imports left (owners gone) and answers one line per import it acted on: `npm start` prints
 * them before `ready`, the `import` command on standard error before it imports.
 */
export async function recoverAbandonedImports(): Promise<string[]> {
  const recoveries = await recoverUnfinishedImports();
  return recoveries.filter((recovery) => recovery.outcome !== 'running').map(describeRecovery);
}
