import * as v from 'valibot';
import { indexEntry } from '../../db/partition.ts';
import { authorComments, commentKey, courseComments, postComments } from '../../db/keys/feeds.ts';
import { timeSort } from '../../db/keys/sort.ts';
import { COMMENT_STATUSES } from '../../vocabulary/feeds.ts';
import { FEED_VISIBILITIES } from '../../vocabulary/spaces.ts';

export type { CommentStatus } from '../../vocabulary/feeds.ts';

const integer = v.pipe(v.number(), v.integer());

/** A comment as stored (`COMMENT#<id>` / `COMMENT`); replies name their parent comment. */
export const CommentItemSchema = v.object({
  id: integer,
  post_id: integer,
  parent_id: v.nullable(integer),
  user_id: integer,
  /** The post's space (null for global feeds), copied so visibility filters need no post read. */
  space_id: v.nullable(integer),
  space_visibility: v.picklist(FEED_VISIBILITIES),
  /** Set when the post is a lesson: the comment also lists under its course. */
  course_id: v.nullable(integer),
  message: v.string(),
  message_rendered: v.string(),
  status: v.picklist(COMMENT_STATUSES),
  reactions_count: integer,
  created_at: v.string(),
  updated_at: v.string(),
});
export type CommentItem = v.InferOutput<typeof CommentItemSchema>;

export function storedComment(comment: CommentItem) {
  const sort = timeSort(comment.created_at, comment.id);
  return {
    ...commentKey(comment.id),
    entity: 'comment',
    ...comment,
    ...indexEntry(authorComments(comment.user_id), sort),
    ...indexEntry(postComments(comment.post_id), sort),
    ...(comment.course_id !== null ? indexEntry(courseComments(comment.course_id), sort) : {}),
  };
}
