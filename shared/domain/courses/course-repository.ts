import { courseLessons, quizKey } from '../../db/keys/courses.ts';
import { getItem, queryItems } from '../../db/reads.ts';
import { type LessonOrderRow, LessonOrderRowSchema, type QuizItem, QuizItemSchema } from './course-item.ts';

/** Lessons and quizzes, one method per access pattern (ACCESS_PATTERNS.md, "Quizzes" and "Course administration"). */

/** The quiz of a lesson, parsed; undefined when the lesson has none. */
export function findQuiz(lessonId: number): Promise<QuizItem | undefined> {
  return getItem(quizKey(lessonId), QuizItemSchema);
}

/**
 * The lessons of a course in order (position, then id), from the order rows in the course partition: one Query
 * whose cost grows with the course's lessons, never with its students or submissions. A course's rows (about 200
 * bytes each) fit the Query's 1 MB page many thousands of times over.
 */
export function findCourseLessons(courseId: number): Promise<LessonOrderRow[]> {
  return queryItems(courseLessons(courseId), LessonOrderRowSchema, { ascending: true });
}
