import { withFreshId } from '../../db/ids.ts';
import { invalidParams } from '../../errors/app-error.ts';
import { type Caller, canModerateCourseComments } from '../auth/index.ts';
import { nowIso } from '../dates.ts';
import { type CommentItem, toCommentResponse } from '../feeds/index.ts';
import { renderMessage } from '../text/index.ts';
import { isContentModerationOn } from './content-moderation.ts';
import { commentsDisabled, lessonNotFound } from './course-errors.ts';
import { findLessonCommentContext, insertLessonComment } from './course-repository.ts';
import { participantLesson } from './lesson-access.ts';
import { notifyLessonComment } from './lesson-comment-notifications.ts';

export interface CreateLessonCommentInput {
  readonly message: string;
  readonly parent_id?: number | null | undefined;
}

const notAReplyHere = () => invalidParams({ parent_id: 'is not a comment of this lesson' });

/**
 * `POST /courses/{course_id}/lessons/{lesson_id}/comments`: a comment (or, with `parent_id`, a reply to a comment of
 * the same lesson) by a student or admin of the course, rendered by the feeds rules (Markdown, sanitized HTML,
 * mentions linked). Refused with 403 when the course has `disable_comments`. With content moderation on, comments
 * of people who cannot moderate the course are stored `pending` and shown only to moderators. The comment and every
 * count it moves are one transaction (course-repository.ts `insertLessonComment`); a published one then notifies
 * the replied-to author and mentioned participants (lesson-comment-notifications.ts).
 */
export async function createLessonComment(
  caller: Caller,
  courseId: number,
  lessonId: number,
  input: CreateLessonCommentInput,
) {
  const parentId = input.parent_id ?? null;
  // One round: the course, membership, lesson, author and parent in one BatchGetItem, beside the settings.
  const [found, moderation] = await Promise.all([
    findLessonCommentContext(courseId, lessonId, caller.id, parentId),
    isContentModerationOn(),
  ]);
  const { course, lesson, membership } = participantLesson(caller, courseId, lessonId, found);
  const { parent, author } = found;
  if (course.settings.disable_comments === 'yes') throw commentsDisabled();
  if (parentId !== null && parent?.post_id !== lesson.id) throw notAReplyHere();

  const rendered = renderMessage(input.message);
  const now = nowIso();
  // A drawn id that is already taken (the comment item's own guard) draws another.
  const comment = await withFreshId(async (id) => {
    const comment: CommentItem = {
      id,
      post_id: lesson.id,
      parent_id: parentId,
      user_id: caller.id,
      space_id: lesson.space_id,
      space_visibility: lesson.space_visibility,
      course_id: courseId,
      message: input.message,
      message_rendered: rendered.html,
      status: moderation && !canModerateCourseComments(caller, membership) ? 'pending' : 'published',
      reactions_count: 0,
      created_at: now,
      updated_at: now,
    };
    const outcome = await insertLessonComment(comment, courseId);
    if (outcome === 'lesson_gone') throw lessonNotFound();
    if (outcome === 'parent_gone') throw notAReplyHere();
    return comment;
  });
  const { id } = comment;
  // A pending comment tells no one until it is published.
  if (comment.status === 'published') {
    await notifyLessonComment(
      caller,
      {
        id,
        courseId,
        lessonId: lesson.id,
        message: input.message,
        parentAuthorId: parent?.user_id ?? null,
      },
      rendered.mentions,
      author?.display_name,
    );
  }
  return {
    message:
      comment.status === 'pending' ? 'Comment has been submitted for review.' : 'Comment has been added.',
    comment: toCommentResponse(comment, author, false),
  };
}
