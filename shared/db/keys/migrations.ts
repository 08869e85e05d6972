import type { ItemKey } from '../partition.ts';
import { pad } from './sort.ts';

export type MigrationItemKind = 'group' | 'membership' | 'activity' | 'comment' | 'user';

/** The one migration lock (one run at a time, any source): conditional Put, deleted when the run ends. */
export const migrationLockKey = (): ItemKey => ({ pk: 'MIGRATION', sk: 'LOCK' });
/** The current (latest) run of a source; `GET /migrations/<source>/status` is one GetItem of this item. */
export const migrationRunKey = (source: string): ItemKey => ({ pk: `MIGRATION#${source}`, sk: 'RUN' });
/** Copy of a finished run, kept when the next run replaces the current one. */
export const migrationRunArchiveKey = (source: string, runId: string): ItemKey => ({
  pk: `MIGRATION#${source}`,
  sk: `RUN#${runId}`,
});
/** Chunk marker: Put with `attribute_not_exists(pk)` in the transaction that adds the chunk's counts. */
export const migrationChunkKey = (runId: string, kind: MigrationItemKind, chunkNo: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `CHUNK#${kind}#${pad(chunkNo)}`,
});
/** Source id → target id map, across runs (skip_existing, never duplicate): conditional Put per migrated row. */
export const migrationMapKey = (
  source: string,
  kind: MigrationItemKind,
  sourceId: number | string,
): ItemKey => ({
  pk: `MIGMAP#${source}#${kind}#${sourceId}`,
  sk: 'MAP',
});
