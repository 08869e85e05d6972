import { type CommentItem, type CommentResponse, toCommentResponses, type PostItem } from '../feeds/index.ts';

/** The trimmed parent lesson reference of a course comment row. */
export interface LessonReference {
  id: number;
  title: string;
  slug: string;
}

/**
 * A course comment row: the feeds domain's comment row (author profile as `xprofile`, which carries no e-mail, and
 * the caller's `liked`), plus `course_id` and the trimmed `lesson` it is on (null if the lesson is gone).
 */
export type CourseCommentResponse = CommentResponse & { course_id: number; lesson: LessonReference | null };

export async function toCourseCommentResponses(
  courseId: number,
  comments: readonly CommentItem[],
  liked: ReadonlySet<number>,
  lessons: ReadonlyMap<number, PostItem>,
): Promise<CourseCommentResponse[]> {
  const rows = await toCommentResponses(comments, liked);
  return rows.map((row) => {
    const lesson = lessons.get(row.post_id);
    return {
      ...row,
      course_id: courseId,
      lesson: lesson ? { id: lesson.id, title: lesson.title, slug: lesson.slug } : null,
    };
  });
}
