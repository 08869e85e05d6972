import {
  deleteOrphanComments,
  findCommentReactionBatch,
  findFeedCommentBatch,
} from './comment-repository.ts';
import { deleteReactionItems, findPostReactionBatch } from './feed-repository.ts';
import { reactionKeyOf } from './reaction-item.ts';

const BATCH = 25;
/** Items (likes and comments) one step removes at most, so a step stays well inside the worker's timeout. */
export const SWEEP_BUDGET = 1_000;
/**
 * The comment index is eventually consistent: after the last progress, wait this long at most for comments it does
 * not list yet (or still lists after their delete).
 */
const INDEX_PATIENCE_MS = 3_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SweepProgress {
  /** Published comments the deleted feed counted that are still to be removed. */
  readonly commentsLeft: number;
  /** Nothing is left: the likes are gone, and the comments counted were removed and the index lists no more. */
  readonly finished: boolean;
}

/**
 * One step of removing a deleted feed's children: its likes, its comments with the likes on them, and the comment
 * counters of their authors. Nothing can be added meanwhile (comment and like writes require the feed). The
 * feed's likes are read consistently from its partition; its comments come from the comment index, which may lag,
 * so the sweep goes on until it has removed the `commentsLeft` published comments the feed counted (its delete was
 * conditioned on that count), and then until the index lists nothing more. A step stops after about `budget`
 * items and answers what is left; every delete is conditioned, so a step run twice removes nothing twice.
 */
export async function sweepFeedChildren(
  postId: number,
  commentsLeft: number,
  budget = SWEEP_BUDGET,
): Promise<SweepProgress> {
  let spent = 0;
  for (;;) {
    if (spent >= budget) return { commentsLeft, finished: false };
    const batch = await findPostReactionBatch(postId, 100);
    if (batch.length === 0) break;
    await deleteReactionItems(batch.map(reactionKeyOf));
    spent += batch.length;
  }
  let left = commentsLeft;
  let deadline = Date.now() + INDEX_PATIENCE_MS;
  for (;;) {
    if (spent >= budget) return { commentsLeft: left, finished: false };
    const batch = await findFeedCommentBatch(postId, BATCH);
    if (batch.length === 0) {
      if (left <= 0 || Date.now() > deadline) return { commentsLeft: left, finished: true };
      await pause(50);
      continue;
    }
    for (const comment of batch) spent += await sweepReactions(comment.id);
    const gone = await deleteOrphanComments(batch);
    spent += batch.length;
    const removed = batch.filter((comment) => comment.status === 'published' && !gone.has(comment.id));
    left = Math.max(0, left - removed.length);
    // Everything listed was already deleted: the index has not caught up with our own deletes yet.
    if (gone.size === batch.length) {
      if (Date.now() > deadline) return { commentsLeft: left, finished: true };
      await pause(50);
    } else {
      deadline = Date.now() + INDEX_PATIENCE_MS;
    }
  }
}

/** Every like on one comment; answers how many were removed. */
async function sweepReactions(commentId: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await findCommentReactionBatch(commentId, 100);
    if (batch.length === 0) return removed;
    await deleteReactionItems(batch.map(reactionKeyOf));
    removed += batch.length;
  }
}
