import { inLanes, putItemsInBatches, updateItemsInParallel } from '../../db/batch-write.ts';
import { MAX_TRANSACTION_ACTIONS, transactWriteIfConditionsHold } from '../../db/transact.ts';
import type { ChunkWrites, FeedCommentsMove } from './chunk-plan.ts';

/** BatchWriteItem calls (and feed-move transactions) in flight per chunk. */
const PARALLEL = 4;
/** A feed's move and its marker are two actions: this many feeds per transaction. */
const MOVES_PER_TRANSACTION = MAX_TRANSACTION_ACTIONS / 2;

/**
 * A chunk's planned writes, before its record: puts in parallel batches, in-place updates, then earlier runs'
 * feeds gaining comments, many per transaction. Each is safe to repeat: puts are idempotent, updates SET values
 * the chunk determines, and a feed's move goes with its marker.
 */
export async function writeChunk(writes: ChunkWrites): Promise<void> {
  await putItemsInBatches(writes.puts, { parallel: PARALLEL });
  await updateItemsInParallel(writes.updates, { parallel: PARALLEL });
  const parts = Array.from(
    { length: Math.ceil(writes.feedComments.length / MOVES_PER_TRANSACTION) },
    (_, i) => writes.feedComments.slice(i * MOVES_PER_TRANSACTION, (i + 1) * MOVES_PER_TRANSACTION),
  );
  await inLanes(parts, PARALLEL, moveFeedComments);
}

/**
 * One transaction of feed moves, each beside its marker (`attribute_not_exists`). A failed condition names the
 * pair to leave out: its marker exists (an earlier delivery moved that feed) or its feed is gone (deleted
 * meanwhile: nothing to count). The rest is sent again; each attempt has fewer pairs, so this ends.
 */
async function moveFeedComments(part: readonly FeedCommentsMove[]): Promise<void> {
  let pending = part;
  while (pending.length > 0) {
    const outcome = await transactWriteIfConditionsHold(pending.flatMap((pair) => [pair.marker, pair.move]));
    if (outcome.written) return;
    const settled = new Set(outcome.failed.map((index) => Math.floor(index / 2)));
    pending = pending.filter((_, i) => !settled.has(i));
  }
}
