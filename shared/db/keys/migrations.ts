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
/**
 * A chunk's reservation (ids from the sequences, its clock), created once with `attribute_not_exists(pk)` and
 * reused by every delivery, so a rewritten chunk gets the same ids and dates.
 */
export const migrationChunkReservationKey = (
  runId: string,
  kind: MigrationItemKind,
  chunkNo: number,
): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `RESERVE#${kind}#${pad(chunkNo)}`,
});
/** Marker of one part of a chunk's aggregate moves (a chunk moving more counters than one transaction holds). */
export const migrationChunkPartKey = (
  runId: string,
  kind: MigrationItemKind,
  chunkNo: number,
  part: number,
): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `CHUNKPART#${kind}#${pad(chunkNo)}#${pad(part)}`,
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
