import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import { commentKey, commentReactions, postComments } from '../../db/keys/feeds.ts';
import { userKey, userStatsKey } from '../../db/keys/users.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  type TransactAction,
  type TransactOutcome,
  transactWriteIfConditionsHold,
} from '../../db/transact.ts';
import { type CommentItem, CommentItemSchema } from './comment-item.ts';
import { commentCounts, commentPoints } from './comment-counts.ts';
import { ReactionItemSchema } from './reaction-item.ts';

/**
 * Comments of feeds, one function per access pattern (ACCESS_PATTERNS.md, "… comments, reactions"); the reads other
 * domains use are in comment-lookups.ts, the writes they compose in comment-write-actions.ts.
 */

export function writeCommentActions(actions: readonly TransactAction[]): Promise<TransactOutcome> {
  return transactWriteIfConditionsHold(actions);
}

/** One page of a feed's published comments, oldest first (G2), with the cursor to the next page. */
export function queryFeedCommentPage(query: {
  postId: number;
  page: number;
  perPage: number;
  cursor?: string | undefined;
  total?: number | undefined;
}): Promise<PageResult<CommentItem>> {
  return queryPage({
    partition: postComments(query.postId),
    schema: CommentItemSchema,
    ascending: true,
    page: query.page,
    perPage: query.perPage,
    cursor: query.cursor,
    total: query.total,
    filter: {
      expression: '#status = :published',
      names: { '#status': 'status' },
      values: { ':published': 'published' },
    },
  });
}

// ---- Sweeps after a feed is deleted ------------------------------------------------------------------------------

/** Up to `limit` comments of a feed (any status), from the feed's comment index. */
export const findFeedCommentBatch = (postId: number, limit: number) =>
  queryItems(postComments(postId), CommentItemSchema, { limit });

/** Up to `limit` reactions on a comment, read consistently from the comment's partition. */
export const findCommentReactionBatch = (commentId: number, limit: number) =>
  queryItems(commentReactions(commentId), ReactionItemSchema, { consistent: true, limit });

/**
 * Deletes comments whose feed is gone with their authors' counters, in one transaction (≤ 25 comments: one delete
 * each plus one counter update per author). Each delete is conditioned on the comment still existing, so a
 * comment the index still lists after it was deleted is never subtracted twice; answers the ids that were gone.
 */
export async function deleteOrphanComments(comments: readonly CommentItem[]): Promise<Set<number>> {
  let pending = [...comments];
  const gone = new Set<number>();
  while (pending.length > 0) {
    const byAuthor = new Map<number, CounterDeltas>();
    for (const comment of pending) {
      const deltas = byAuthor.get(comment.user_id) ?? new CounterDeltas();
      byAuthor.set(comment.user_id, deltas);
      for (const [name, amount] of Object.entries(commentCounts(comment))) deltas.add(name, -amount);
    }
    const points = new Map<number, number>();
    for (const comment of pending) {
      points.set(comment.user_id, (points.get(comment.user_id) ?? 0) + commentPoints(comment));
    }
    const actions: TransactAction[] = [
      ...pending.map((comment) =>
        deleteAction(commentKey(comment.id), { ConditionExpression: 'attribute_exists(pk)' }),
      ),
      ...[...byAuthor]
        .filter(([, deltas]) => !deltas.isEmpty)
        .map(([userId, deltas]) => counterUpdate(userStatsKey(userId), deltas)),
      ...[...points]
        .filter(([, amount]) => amount > 0)
        .map(([userId, amount]) => counterUpdate(userKey(userId), { total_points: -amount })),
    ];
    const outcome = await transactWriteIfConditionsHold(actions);
    if (outcome.written) return gone;
    const failed = outcome.failed.filter((index) => index < pending.length);
    // Comments already gone (another sweep of the same feed, e.g. a redelivered message, removed them) also make
    // the counters' floors fail, as their decrements were counted twice: retry without them. Only floors failing
    // on their own mean the counters disagree with the comments.
    if (failed.length === 0) {
      throw new Error('Comment counters disagree with the comments (a decrement below zero was refused)');
    }
    for (const index of failed) gone.add((pending[index] as CommentItem).id);
    pending = pending.filter((_, index) => !failed.includes(index));
  }
  return gone;
}
