import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import {
  commentKey,
  commentReactionKey,
  commentReactions,
  postComments,
  postKey,
} from '../../db/keys/feeds.ts';
import { userKey, userStatsKey } from '../../db/keys/users.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { batchGetItems, getItem, queryItems } from '../../db/reads.ts';
import { itemRead, itemsRead, mapRead } from '../../db/read-together.ts';
import {
  conditionCheckAction,
  deleteAction,
  putAction,
  type TransactAction,
  type TransactOutcome,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import { type CommentItem, CommentItemSchema, storedComment } from './comment-item.ts';
import { ReactionItemSchema } from './reaction-item.ts';

/** Comments of feeds, one function per access pattern (ACCESS_PATTERNS.md, "… comments, reactions"). */

export function findCommentById(commentId: number): Promise<CommentItem | undefined> {
  return getItem(commentKey(commentId), CommentItemSchema);
}

/** `findCommentById` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export const commentRead = (commentId: number, options: { consistent?: boolean } = {}) =>
  itemRead(commentKey(commentId), CommentItemSchema, options);

/** Many comments by id (BatchGetItem); unknown ids are absent. */
export async function findCommentsByIds(commentIds: readonly number[]): Promise<Map<number, CommentItem>> {
  if (commentIds.length === 0) return new Map();
  const comments = await batchGetItems([...new Set(commentIds)].map(commentKey), CommentItemSchema);
  return new Map(comments.map((comment) => [comment.id, comment]));
}

/**
 * The author's counters one comment contributes to (only published comments are counted). Comments on feeds (not
 * lessons) also count by who may see them, `comments_published_public` or `comments_published_members:<sid>`:
 * the totals of the member's comment list on the profile (list-author-comments.ts).
 */
export const commentCounts = (
  comment: Pick<CommentItem, 'status' | 'space_id' | 'space_visibility' | 'course_id'>,
): Record<string, number> => {
  if (comment.status !== 'published') return {};
  const counts: Record<string, number> = {
    comments_published: 1,
    [`comments_published_space:${comment.space_id ?? 0}`]: 1,
  };
  if (comment.course_id === null) {
    const scope =
      comment.space_visibility === 'public'
        ? 'comments_published_public'
        : `comments_published_members:${comment.space_id ?? 0}`;
    counts[scope] = 1;
  }
  return counts;
};

/** Points a published comment on a feed earns its author, on the user item (README "Profile scores"). */
export const COMMENT_POINTS = 2;
export const commentPoints = (comment: Pick<CommentItem, 'status' | 'course_id'>): number =>
  comment.status === 'published' && comment.course_id === null ? COMMENT_POINTS : 0;

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
    actions.push(
      conditionCheckAction(commentKey(comment.parent_id), { ConditionExpression: 'attribute_exists(pk)' }),
    );
  }
  // After the parent check, whose index (3) the caller reads.
  const points = commentPoints(comment);
  if (points > 0) actions.push(counterUpdate(userKey(comment.user_id), { total_points: points }));
  return actions;
}

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

/** Which of these comments the user has liked (one BatchGetItem of their reaction keys). */
export async function findLikedCommentIds(
  commentIds: readonly number[],
  userId: number,
): Promise<Set<number>> {
  if (commentIds.length === 0) return new Set();
  const reactions = await batchGetItems(
    commentIds.map((commentId) => commentReactionKey(commentId, userId)),
    ReactionItemSchema,
  );
  return new Set(reactions.map((reaction) => reaction.object_id));
}

/** `findLikedCommentIds` as a read to send with others in one BatchGetItem. */
export const likedCommentsRead = (commentIds: readonly number[], userId: number) =>
  mapRead(
    itemsRead(
      commentIds.map((commentId) => commentReactionKey(commentId, userId)),
      ReactionItemSchema,
    ),
    (reactions) => new Set(reactions.map((reaction) => reaction.object_id)),
  );

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
