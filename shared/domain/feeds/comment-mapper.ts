import { toIsoDateTime } from '../dates.ts';
import { findUsersByIds, type UserItem } from '../users/index.ts';
import type { CommentItem, CommentStatus } from './comment-item.ts';
import { type AuthorSummary, toAuthorSummary } from './feed-mapper.ts';

/** A comment row (decisions.md "Topics and feeds"; the fields of the profile comment rows, plus the author). */
export interface CommentResponse {
  id: number;
  post_id: number;
  parent_id: number | null;
  message: string;
  message_rendered: string;
  reactions_count: number;
  status: CommentStatus;
  created_at: string;
  updated_at: string;
  liked: boolean;
  xprofile: AuthorSummary | null;
}

/** The fields every comment row shows, whatever list it is in (a feed's, a lesson's, an author's). */
export const commentRowFields = (comment: CommentItem) => ({
  id: comment.id,
  post_id: comment.post_id,
  parent_id: comment.parent_id,
  message: comment.message,
  message_rendered: comment.message_rendered,
  reactions_count: comment.reactions_count,
  status: comment.status,
  created_at: toIsoDateTime(comment.created_at),
  updated_at: toIsoDateTime(comment.updated_at),
});

export const toCommentResponse = (
  comment: CommentItem,
  author: UserItem | undefined,
  liked: boolean,
): CommentResponse => ({
  ...commentRowFields(comment),
  liked,
  xprofile: toAuthorSummary(author),
});

/** Maps a page of comments, reading the authors in one BatchGetItem. */
export async function toCommentResponses(
  comments: readonly CommentItem[],
  liked: ReadonlySet<number>,
): Promise<CommentResponse[]> {
  const authors =
    comments.length > 0
      ? await findUsersByIds(comments.map((comment) => comment.user_id))
      : new Map<number, UserItem>();
  return comments.map((comment) =>
    toCommentResponse(comment, authors.get(comment.user_id), liked.has(comment.id)),
  );
}
