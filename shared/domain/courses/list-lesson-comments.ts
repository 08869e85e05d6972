import type { Caller } from '../auth/index.ts';
import { findLikedCommentIds, queryFeedCommentPage, toCommentResponses } from '../feeds/index.ts';
import type { CourseCommentPageInput } from './list-course-comments.ts';
import { loadParticipantLesson } from './lesson-access.ts';

/**
 * `GET /courses/{course_id}/lessons/{lesson_id}/comments`: the lesson's published comments, oldest first like a
 * feed's (the feeds domain's comment list and rows), for the course's students and admins. The total is the
 * lesson's maintained `comments_count`; `next_page_url` carries the cursor.
 */
export async function listLessonComments(
  caller: Caller,
  courseId: number,
  lessonId: number,
  input: CourseCommentPageInput,
) {
  const { lesson } = await loadParticipantLesson(caller, courseId, lessonId);
  const page = await queryFeedCommentPage({
    postId: lesson.id,
    page: input.page,
    perPage: input.per_page,
    cursor: input.cursor,
    total: lesson.comments_count,
  });
  const liked = await findLikedCommentIds(
    page.items.map((comment) => comment.id),
    caller.id,
  );
  return {
    items: await toCommentResponses(page.items, liked),
    total: lesson.comments_count,
    page: input.page,
    perPage: input.per_page,
    nextCursor: page.nextCursor,
  };
}
