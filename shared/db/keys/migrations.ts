import { type Partition, tablePartition, type ItemKey } from '../partition.ts';
import { pad } from './sort.ts';

/** What a migration ledger records, per source row kind (a group, a membership row, a root activity). */
export type MigrationLedgerKind = 'group' | 'membership' | 'activity';
/** The target id families a source's rows map onto deterministically (see `migrationIdSpaceKey`). */
export type MigrationIdSpaceName =
  | 'space'
  | 'user'
  | 'post'
  | 'comment'
  | 'member_avatar'
  | 'member_cover'
  | 'group_avatar'
  | 'group_cover';

/** The one migration lock (one run at a time, any source): conditional Put, deleted when the run ends. */
export const migrationLockKey = (): ItemKey => ({ pk: 'MIGRATION', sk: 'LOCK' });
/** The current (latest) run of a source; `GET /migrations/<source>/status` is one GetItem of this item. */
export const migrationRunKey = (source: string): ItemKey => ({ pk: `MIGRATION#${source}`, sk: 'RUN' });
/**
 * A source's id space of one target family: segments `{from, to, first}` saying that source id `s` in
 * `[from, to]` maps onto target id `first + s - from`, blocks reserved from the target's sequence. Segments are
 * only ever appended, so a source row keeps its target id across runs.
 */
export const migrationIdSpaceKey = (source: string, name: MigrationIdSpaceName): ItemKey => ({
  pk: `MIGRATION#${source}`,
  sk: `IDSPACE#${name}`,
});
/**
 * The ledger of a source: which rows a run's counted chunk migrated, one item per chunk and block of source ids
 * (the primary rows' ids: groups, membership rows, root activities; a root's comments go with their root), put in
 * the transaction that counts the chunk. A block's partition lists every run's entries (`migrationLedgerBlock`).
 */
export const migrationLedgerKey = (
  source: string,
  kind: MigrationLedgerKind,
  block: number,
  runId: string,
  chunkNo: number,
): ItemKey => ({
  pk: `MIGLEDGER#${source}#${kind}#${block}`,
  sk: `RUN#${runId}#${pad(chunkNo)}`,
});
export const migrationLedgerBlock = (source: string, kind: MigrationLedgerKind, block: number): Partition =>
  tablePartition(`MIGLEDGER#${source}#${kind}#${block}`, 'RUN#');
/** Chunk marker: Put with `attribute_not_exists(pk)` in the transaction that adds the chunk's counts. */
export const migrationChunkKey = (runId: string, kind: MigrationLedgerKind, chunkNo: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `CHUNK#${kind}#${pad(chunkNo)}`,
});
/** Put `attribute_not_exists(pk)` when a chunk's processing starts: a delivery finding it is a retry. */
export const migrationChunkAttemptKey = (
  runId: string,
  kind: MigrationLedgerKind,
  chunkNo: number,
): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `ATTEMPT#${kind}#${pad(chunkNo)}`,
});
/**
 * Marker of a chunk's move of an earlier run's feed's `comments_count` (new comments under it), created in the
 * transaction that moves it, so a redelivery moves it once.
 */
export const migrationFeedMoveKey = (runId: string, chunkNo: number, postId: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `FEEDMOVE#${pad(chunkNo)}#${pad(postId)}`,
});
/**
 * One shard of the aggregate moves (counter item → deltas) of a counted chunk (`origin` its ledger kind, `n` its
 * number), written in the chunk's counting transaction, or of a user or space a run created with its images
 * (`user` / `space` and its id), written with it; the run's last step sums each shard and moves every counter
 * item once.
 */
export const migrationTallyKey = (runId: string, shard: number, origin: string, n: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `TALLY#${pad(shard)}#${origin}#${pad(n)}`,
});
/** Every chunk's tally of one shard (the last step's Query). */
export const migrationRunTallies = (runId: string, shard: number): Partition =>
  tablePartition(`MIGRATIONRUN#${runId}`, `TALLY#${pad(shard)}#`);
/** Marker of one applied part of a tally shard (created in the transaction that moves the part's counters). */
export const migrationTallyPartKey = (runId: string, shard: number, part: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `TALLYDONE#${pad(shard)}#${pad(part)}`,
});
/** Marker of a tally shard counted done (created, after every part has moved, with the run's count of it). */
export const migrationTallyShardDoneKey = (runId: string, shard: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `TALLYDONE#${pad(shard)}#done`,
});
/**
 * A member's or group's images (avatar, cover) a chunk named and handed to the `images` worker, not yet stored:
 * put by the chunk (after sending the message, only while the images' done marker is absent) before it writes the
 * user or space; deleted by the worker with the done marker's creation. The run's tally is planned only once
 * this partition of the run is empty (`migrationRunPendingImages`).
 */
export const migrationImagesPendingKey = (runId: string, owner: string, sourceId: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `IMGPENDING#${owner}#${pad(sourceId)}`,
});
export const migrationRunPendingImages = (runId: string): Partition =>
  tablePartition(`MIGRATIONRUN#${runId}`, 'IMGPENDING#');
/** Marker of a member's or group's images stored and counted (created `attribute_not_exists`, once per run). */
export const migrationImagesDoneKey = (runId: string, owner: string, sourceId: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `IMGDONE#${owner}#${pad(sourceId)}`,
});
/**
 * Source user id → platform user id, across runs: a source user becomes a new user (at its id-space id) or, when
 * its e-mail or login is taken on the platform, that user. Written once the user exists.
 */
export const migrationUserMapKey = (source: string, sourceUserId: number): ItemKey => ({
  pk: `MIGMAP#${source}#user#${sourceUserId}`,
  sk: 'MAP',
});
