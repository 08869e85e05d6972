import { ImportError, itemName } from '../import-error.ts';
import { lessonRef } from '../reference-scope.ts';
import { planComment } from './comments.ts';
import { defineCoursePart } from './course-part.ts';

/**
 * A course's `comments`: comments on the course's own lessons (`lesson` is a lesson ref of this course), counted
 * like every lesson comment (comments.ts `planComment`). Their refs are unique within the course and printed under
 * the course's `comments`.
 */
export const courseCommentsPart = defineCoursePart({
  name: 'comments',

  resolve(comments, course, where, scope) {
    comments.forEach((comment, j) => {
      const commentWhere = itemName(`${where}: comments`, j, comment.ref);
      if (comment.ref !== undefined)
        scope.unique(`course-comment:${course.ref}`, comment.ref, commentWhere, 'ref');
      scope.user(comment.user, `${commentWhere}: user`);
      if (scope.indexOf('lesson', lessonRef(course.ref, comment.lesson)) === undefined)
        throw new ImportError(`${commentWhere}: lesson: unknown lesson ref "${comment.lesson}"`);
    });
  },

  ids: (comments) => ({ comment: comments.length }),

  build(comments, course, context) {
    const ids: Record<string, number> = {};
    comments.forEach((comment, j) => {
      const id = context.takeId('comment');
      planComment(context, itemName(`${course.where}: comments`, j, comment.ref), {
        id,
        postId: context.idOf('lesson', lessonRef(course.ref, comment.lesson)),
        parentId: null,
        userId: context.userId(comment.user),
        message: comment.message,
        status: comment.status,
        createdAt: comment.created_at ?? context.now,
      });
      if (comment.ref !== undefined) ids[comment.ref] = id;
    });
    return comments.length > 0 ? ids : undefined;
  },
});
