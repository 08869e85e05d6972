import { type ItemKey, type Partition, tablePartition } from '../partition.ts';
import { pad } from './sort.ts';

/**
 * The operator import's write-ahead log (shared/domain/import/import-journal-repository.ts). An import that needs
 * more than one transaction first puts its journal; each of its transactions puts a batch marker carrying that
 * batch's undo; the journal leaves only once the import is committed and its markers are gone. A crash at any
 * point therefore leaves a journal that a recovery finds, and markers that say exactly what to undo.
 */

/**
 * The journal of one unfinished import (status, owner, heartbeat). Journals live together in one small partition,
 * so a recovery lists every unfinished import with one consistent Query, never a Scan.
 */
export const importJournalKey = (importId: string): ItemKey => ({ pk: 'IMPORTS', sk: `JOURNAL#${importId}` });
/** Every unfinished import (one item each, removed when the import is committed and cleaned up or rolled back). */
export const importJournals = (): Partition => tablePartition('IMPORTS', 'JOURNAL#');

/** Batch `batchNo` of an import committed: put in the batch's own transaction, with the batch's undo. */
export const importBatchKey = (importId: string, batchNo: number): ItemKey => ({
  pk: `IMPORT#${importId}`,
  sk: `BATCH#${pad(batchNo)}`,
});
/** The committed batches of an import, in batch order (newest last). */
export const importBatches = (importId: string): Partition => tablePartition(`IMPORT#${importId}`, 'BATCH#');
