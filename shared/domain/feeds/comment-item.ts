import { commentByAuthorIndex, commentByCourseIndex, commentByPostIndex, commentKey } from '../../db/keys.ts';

export const COMMENT_MESSAGE_MAX_LENGTH = 10_000;
export const COMMENT_STATUSES = ['published', 'pending'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/** A comment as stored (`COMMENT#<id>` / `COMMENT`); replies name their parent comment. */
export interface CommentItem {
  id: number;
  post_id: number;
  parent_id: number | null;
  user_id: number;
  /** The post's space (null for global feeds), copied so visibility filters need no post read. */
  space_id: number | null;
  space_visibility: 'public' | 'members';
  /** Set when the post is a lesson: the comment also lists under its course. */
  course_id: number | null;
  message: string;
  message_rendered: string;
  status: CommentStatus;
  reactions_count: number;
  created_at: string;
  updated_at: string;
}

export const storedComment = (comment: CommentItem) => ({
  ...commentKey(comment.id),
  entity: 'comment',
  ...comment,
  ...commentByAuthorIndex(comment.user_id, comment.created_at, comment.id),
  ...commentByPostIndex(comment.post_id, comment.created_at, comment.id),
  ...(comment.course_id !== null
    ? commentByCourseIndex(comment.course_id, comment.created_at, comment.id)
    : {}),
});
