import { counterUpdate } from '../../db/counters.ts';
import { commentKey, postKey } from '../../db/keys/feeds.ts';
import { userKey, userStatsKey } from '../../db/keys/users.ts';
import { existsCheck, putAction, type TransactAction, updateAction } from '../../db/transact.ts';
import { commentAggregates } from './comment-aggregates.ts';
import { commentCounts, commentPoints } from './comment-counts.ts';
import { type CommentItem, storedComment } from './comment-item.ts';
import type { FeedAggregate } from './feed-aggregates.ts';

/**
 * The writes of comments that other domains compose into their own transactions or bulk plans (a lesson comment,
 * the import, the migration). Whoever writes them never builds a comment item or key itself.
 */

/**
 * Creating a published comment: the comment (G1 author, G2 feed), the feed's `comments_count` (published comments)
 * on the condition that the feed still exists, the author's counters, and for a reply the condition that the parent
 * still exists. Action 1 is the feed, action 3 (when present) the parent.
 */
export function commentCreationActions(comment: CommentItem): TransactAction[] {
  if (comment.status !== 'published') throw new Error('Only published comments are created here');
  const actions: TransactAction[] = [
    putAction(storedComment(comment), { ifAbsent: true }),
    updateAction(postKey(comment.post_id), {
      UpdateExpression: 'ADD comments_count :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    }),
    counterUpdate(userStatsKey(comment.user_id), commentCounts(comment)),
  ];
  if (comment.parent_id !== null) {
    actions.push(existsCheck(commentKey(comment.parent_id)));
  }
  // After the parent check, whose index (3) the caller reads.
  const points = commentPoints(comment);
  if (points > 0) actions.push(counterUpdate(userKey(comment.user_id), { total_points: points }));
  return actions;
}

/**
 * Storing an unpublished (pending) comment, which counts nowhere on the feed or its author: the comment, on the
 * condition that its post still exists (action 1) and, for a reply, that its parent does (the last action).
 */
export function pendingCommentActions(comment: CommentItem): TransactAction[] {
  if (comment.status === 'published') throw new Error('A published comment is created with its counts');
  return [
    putAction(storedComment(comment), { ifAbsent: true }),
    existsCheck(postKey(comment.post_id)),
    ...(comment.parent_id === null ? [] : [existsCheck(commentKey(comment.parent_id))]),
  ];
}

/** A comment created whole by a bulk writer: its item, ready to put, and the aggregates it moves. */
export interface NewCommentWrites {
  readonly item: ReturnType<typeof storedComment>;
  readonly aggregates: readonly FeedAggregate[];
}

/**
 * What a comment a bulk writer stores itself (the import, the migration) writes: the comment (listed by author, by
 * post and, on a lesson, by course) and exactly the aggregates the comment write path moves (`commentAggregates`:
 * none for an unpublished one; the feed's `comments_count` only with `onFeed`).
 */
export const newCommentWrites = (
  comment: CommentItem,
  options: { readonly onFeed: boolean },
): NewCommentWrites => ({
  item: storedComment(comment),
  aggregates: commentAggregates(comment, options),
});
