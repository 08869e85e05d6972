import { spaceStatsKey } from '../../../db/keys/spaces.ts';
import { type CommentItem, newCommentWrites } from '../../feeds/index.ts';
import { renderMarkdown } from '../../text/index.ts';
import { ImportError, itemName } from '../import-error.ts';
import type { PlannedCount } from '../import-plan.ts';
import type { ImportComment } from '../import-schema.ts';
import { lessonRef } from '../reference-scope.ts';
import { type BuildContext, defineSection } from './section.ts';

/**
 * The lesson a comment not on a feed is on: the schema lets a comment name either `feed` or both `course` and
 * `lesson`, so one without `feed` names both.
 */
function lessonOf(comment: ImportComment): { course: string; lesson: string } {
  const { course, lesson } = comment;
  if (course === undefined || lesson === undefined) throw new Error('A comment names a feed or a lesson');
  return { course, lesson };
}

const lessonRefOf = (comment: ImportComment): string => {
  const { course, lesson } = lessonOf(comment);
  return lessonRef(course, lesson);
};

/** What a comment is on: a feed of the file, or a lesson of one of the file's courses. */
const targetOf = (comment: ImportComment): string =>
  comment.feed !== undefined ? `feed:${comment.feed}` : `lesson:${lessonRefOf(comment)}`;

/**
 * `comments`: each comment on a feed or a lesson of the file; a reply names an earlier comment on the same post.
 * A published one counts on its post's `comments_count` and its author's stats; a comment on a lesson also counts
 * on the course's `lesson_comments_<status>`.
 */
export const commentsSection = defineSection({
  name: 'comments',

  resolve(comments, scope) {
    comments.forEach((comment, i) => {
      if (comment.ref !== undefined)
        scope.define('comment', comment.ref, i, itemName('comments', i, comment.ref));
    });
    // References after every ref is known, so a parent listed later is named as such rather than as unknown.
    comments.forEach((comment, i) => {
      const where = itemName('comments', i, comment.ref);
      scope.user(comment.user, `${where}: user`);
      if (comment.feed !== undefined) scope.require('feed', comment.feed, `${where}: feed`);
      else {
        scope.require('course', lessonOf(comment).course, `${where}: course`);
        if (scope.indexOf('lesson', lessonRefOf(comment)) === undefined)
          throw new ImportError(`${where}: lesson: unknown lesson ref "${comment.lesson}"`);
      }
      if (comment.parent === null) return;
      const parent = scope.require('comment', comment.parent, `${where}: parent`);
      if (parent >= i)
        throw new ImportError(`${where}: parent: parent "${comment.parent}" must be listed before the reply`);
      const listed = comments[parent];
      if (listed !== undefined && targetOf(listed) !== targetOf(comment))
        throw new ImportError(`${where}: parent: the parent is on another post`);
    });
  },

  ids: (comments) => ({ comment: comments.length }),

  build(comments, context) {
    const output: Record<string, number> = {};
    comments.forEach((comment, i) => {
      const id = context.takeId('comment');
      const postId =
        comment.feed !== undefined
          ? context.idOf('feed', comment.feed)
          : context.idOf('lesson', lessonRefOf(comment));
      planComment(context, itemName('comments', i, comment.ref), {
        id,
        postId,
        parentId: comment.parent === null ? null : context.idOf('comment', comment.parent),
        userId: context.userId(comment.user),
        message: comment.message,
        status: comment.status,
        createdAt: comment.created_at ?? context.now,
      });
      if (comment.ref !== undefined) {
        context.setId('comment', comment.ref, id);
        output[comment.ref] = id;
      }
    });
    return output;
  },
});

/**
 * One comment's unit (top-level `comments` and a course's `comments` alike): the comment (a lesson's also lists
 * under its course); a published one counts on its post's `comments_count` and its author's stats; a comment on a
 * lesson also counts on the course's `lesson_comments_<status>`.
 */
export function planComment(
  context: BuildContext,
  label: string,
  comment: {
    id: number;
    postId: number;
    parentId: number | null;
    userId: number;
    message: string;
    status: CommentItem['status'];
    createdAt: string;
  },
): void {
  const post = context.posts.get(comment.postId);
  if (post === undefined) throw new Error(`The post ${comment.postId} was not built before its comments`);
  // A lesson's course; a feed has none.
  const courseId = post.course_id ?? null;
  const item: CommentItem = {
    id: comment.id,
    post_id: comment.postId,
    parent_id: comment.parentId,
    user_id: comment.userId,
    space_id: post.space_id,
    space_visibility: post.space_visibility,
    course_id: courseId,
    message: comment.message,
    message_rendered: renderMarkdown(comment.message),
    status: comment.status,
    reactions_count: 0,
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
  };
  context.comments.set(item.id, item);
  // A published comment's count on its feed, its author's counters and points exactly as the comment write path
  // moves them (an unpublished one moves none).
  const writes = newCommentWrites(item, { onFeed: true });
  const counts: PlannedCount[] = writes.aggregates.map(({ key, deltas }) => ({ key, deltas }));
  if (courseId !== null)
    counts.push({ key: spaceStatsKey(courseId), deltas: { [`lesson_comments_${comment.status}`]: 1 } });
  context.plan.unit(label, [{ item: writes.item, unchanged: ['status'] }], counts);
}
