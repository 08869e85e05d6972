import { type Caller, canModerateCourseComments } from '../auth/index.ts';
import { findCourseCommentPage, findLikedCommentIds, findPostsByIds } from '../feeds/index.ts';
import { isContentModerationOn } from './content-moderation.ts';
import { loadAdministeredCourse } from './course-access.ts';
import { type CourseCommentResponse, toCourseCommentResponses } from './course-comment-mapper.ts';

export interface CourseCommentPageInput {
  readonly page: number;
  readonly per_page: number;
  readonly cursor?: string | undefined;
}

/**
 * `GET /admin/courses/{course_id}/comments`: every comment on the course's lessons, newest first (the course's
 * comment index), for the course's administrators (course-access.ts). Pending comments only when content
 * moderation is on and the caller moderates the course. The total comes from the course counters
 * (`lesson_comments_published`, plus `lesson_comments_pending` when pending ones are shown); the page's authors,
 * lessons and the caller's likes are read in BatchGetItems, so the cost is the page's.
 */
export async function listCourseComments(caller: Caller, courseId: number, input: CourseCommentPageInput) {
  const [{ stats, membership }, moderation] = await Promise.all([
    loadAdministeredCourse(caller, courseId),
    isContentModerationOn(),
  ]);
  const withPending = moderation && canModerateCourseComments(caller, membership);
  const total = stats.lesson_comments_published + (withPending ? stats.lesson_comments_pending : 0);
  const page = await findCourseCommentPage({
    courseId,
    page: input.page,
    perPage: input.per_page,
    cursor: input.cursor,
    total,
    withPending,
  });
  const ids = page.items.map((comment) => comment.id);
  const [liked, lessons] = await Promise.all([
    findLikedCommentIds(ids, caller.id),
    findPostsByIds(page.items.map((comment) => comment.post_id)),
  ]);
  const items: CourseCommentResponse[] = await toCourseCommentResponses(courseId, page.items, liked, lessons);
  return { items, total, page: input.page, perPage: input.per_page, nextCursor: page.nextCursor };
}
