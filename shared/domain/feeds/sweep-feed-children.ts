import { reactionKeyOf } from './reaction-item.ts';
import {
  deleteOrphanComments,
  findCommentReactionBatch,
  findFeedCommentBatch,
} from './comment-repository.ts';
import { deleteReactionItems, findPostReactionBatch } from './feed-repository.ts';
import type { PostItem } from './post-item.ts';

const BATCH = 25;
/**
 * The comment index is eventually consistent: after the last progress, wait this long at most for comments it does
 * not list yet (or still lists after their delete).
 */
const INDEX_PATIENCE_MS = 3_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * After a feed is deleted: its likes, its comments with the likes on them, and the comment counters of their
 * authors. Nothing can be added meanwhile (comment and like writes require the feed). The feed's likes are read
 * consistently from its partition; its comments come from the comment index, which may lag, so the sweep goes on
 * until it has removed at least the `comments_count` the deleted feed had (the delete was conditioned on it), and
 * then until the index lists nothing more. Cost O(comments + likes), paid before the delete answers.
 */
export async function sweepFeedChildren(post: PostItem): Promise<void> {
  await sweepReactions(() => findPostReactionBatch(post.id, 100));
  let removedPublished = 0;
  let deadline = Date.now() + INDEX_PATIENCE_MS;
  for (;;) {
    const batch = await findFeedCommentBatch(post.id, BATCH);
    if (batch.length === 0) {
      if (removedPublished >= post.comments_count || Date.now() > deadline) return;
      await pause(50);
      continue;
    }
    for (const comment of batch) await sweepReactions(() => findCommentReactionBatch(comment.id, 100));
    const gone = await deleteOrphanComments(batch);
    removedPublished += batch.filter(
      (comment) => comment.status === 'published' && !gone.has(comment.id),
    ).length;
    // Everything listed was already deleted: the index has not caught up with our own deletes yet.
    if (gone.size === batch.length) {
      if (Date.now() > deadline) return;
      await pause(50);
    } else {
      deadline = Date.now() + INDEX_PATIENCE_MS;
    }
  }
}

async function sweepReactions(
  next: () => Promise<{ object_type: 'post' | 'comment'; object_id: number; user_id: number }[]>,
) {
  for (;;) {
    const batch = await next();
    if (batch.length === 0) return;
    await deleteReactionItems(batch.map(reactionKeyOf));
  }
}
