import { commentKey, commentReactionKey, courseComments } from '../../db/keys/feeds.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { batchGetItems, getItem } from '../../db/reads.ts';
import { itemRead, itemsRead, mapRead } from '../../db/read-together.ts';
import { type CommentItem, CommentItemSchema } from './comment-item.ts';
import { ReactionItemSchema } from './reaction-item.ts';

/**
 * The feeds domain's public reads of comments (ACCESS_PATTERNS.md, "… comments, reactions"): by id, alone or many,
 * who liked them, and a course's comments page (the course lists comments this domain writes). The answers are
 * parsed comments (no keys), never stored items.
 */

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

/**
 * One page of the comments on a course's lessons, newest first (GSI3 `courseComments`); without `withPending`
 * a filter keeps the published ones only (pending comments are few, so it skips little).
 */
export function findCourseCommentPage(query: {
  courseId: number;
  page: number;
  perPage: number;
  cursor?: string | undefined;
  total: number;
  withPending: boolean;
}): Promise<PageResult<CommentItem>> {
  return queryPage({
    partition: courseComments(query.courseId),
    schema: CommentItemSchema,
    ascending: false,
    page: query.page,
    perPage: query.perPage,
    cursor: query.cursor,
    total: query.total,
    ...(query.withPending
      ? {}
      : {
          filter: {
            expression: '#status = :published',
            names: { '#status': 'status' },
            values: { ':published': 'published' },
          },
        }),
  });
}
