import * as v from 'valibot';
import { importBatchKey, importJournalKey } from '../../db/keys/imports.ts';

const integer = v.pipe(v.number(), v.integer());

/**
 * `writing`: batches are being committed by the owner. `committed`: the import is final (the commit point); only
 * its markers and journal remain to be removed. `rolling_back`: a rollback has fenced the owner off (every batch
 * checks `status = writing`) and is undoing the committed batches, newest first.
 */
export const IMPORT_STATUSES = ['writing', 'committed', 'rolling_back'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** The journal of an unfinished import (`IMPORTS` / `JOURNAL#<id>`). */
export const ImportJournalItemSchema = v.object({
  import_id: v.string(),
  status: v.picklist(IMPORT_STATUSES),
  /** The importing process: a recovery rolls the import back only when this process is gone. */
  owner_host: v.string(),
  owner_pid: integer,
  /** UTC ISO timestamps; the owner moves `heartbeat_at` every few seconds while it writes. */
  started_at: v.string(),
  heartbeat_at: v.string(),
  /** How many transactions the import needs, and how many items of each section it writes (for operators). */
  batches: integer,
  items: v.record(v.string(), integer),
});
export type ImportJournalItem = v.InferOutput<typeof ImportJournalItemSchema>;

export const storedImportJournal = (journal: ImportJournalItem) => ({
  ...importJournalKey(journal.import_id),
  entity: 'import_journal',
  ...journal,
});

/**
 * One step of a batch's undo. `delete`: an item the batch put, deleted only while the `unchanged` attributes still
 * hold the values the batch wrote. `subtract`: counters the batch moved with ADD on an item it did not put, moved
 * back (never below zero).
 */
const keyFields = { pk: v.string(), sk: v.string() };
export const UndoStepSchema = v.variant('op', [
  v.object({
    op: v.literal('delete'),
    ...keyFields,
    unchanged: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()]))),
  }),
  v.object({ op: v.literal('subtract'), ...keyFields, deltas: v.record(v.string(), v.number()) }),
]);
export type UndoStep = v.InferOutput<typeof UndoStepSchema>;

/**
 * The marker of a committed batch (`IMPORT#<id>` / `BATCH#<n>`), put in the batch's own transaction: it exists
 * exactly when the batch's writes do, and it carries their undo, so a rollback needs nothing else and deletes it in
 * the transaction that applies the undo (a batch is never undone twice).
 */
export const ImportBatchItemSchema = v.object({
  import_id: v.string(),
  batch: integer,
  undo: v.array(UndoStepSchema),
});
export type ImportBatchItem = v.InferOutput<typeof ImportBatchItemSchema>;

export const storedImportBatch = (batch: ImportBatchItem) => ({
  ...importBatchKey(batch.import_id, batch.batch),
  entity: 'import_batch',
  ...batch,
});
