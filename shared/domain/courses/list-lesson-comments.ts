import type { Caller } from '../auth/index.ts';
import { listPostComments } from '../feeds/index.ts';
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
  return listPostComments(caller, lesson, input);
}
