import { courseLessons, quizKey } from '../../db/keys/courses.ts';
import { itemRead, noRead, readTogether } from '../../db/read-together.ts';
import { getItem, queryItems } from '../../db/reads.ts';
import { type MembershipItem, membershipRead, type SpaceItem, spaceRead } from '../spaces/index.ts';
import type { CourseStats } from './course-defaults.ts';
import { type LessonOrderRow, LessonOrderRowSchema, type QuizItem, QuizItemSchema } from './course-item.ts';
import { type CourseProgress, courseProgressOf, courseProgressRead } from './course-progress.ts';
import { courseStatsRead } from './course-repository.ts';

/**
 * The courses domain's public reads (ACCESS_PATTERNS.md, "Quizzes" and "Course administration"): a lesson's quiz
 * (alone or with other reads), a course's lessons in order, its statistics, and a student's progress. The answers
 * are parsed (no keys), never stored items.
 */

/** The quiz of a lesson, parsed; undefined when the lesson has none. */
export function findQuiz(lessonId: number): Promise<QuizItem | undefined> {
  return getItem(quizKey(lessonId), QuizItemSchema);
}

/** `findQuiz` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export const quizRead = (lessonId: number, options: { consistent?: boolean } = {}) =>
  itemRead(quizKey(lessonId), QuizItemSchema, options);

/**
 * The lessons of a course in order (position, then id), from the order rows in the course partition: one Query
 * whose cost grows with the course's lessons, never with its students or submissions. A course's rows (about 200
 * bytes each) fit the Query's 1 MB page many thousands of times over.
 */
export function findCourseLessons(courseId: number): Promise<LessonOrderRow[]> {
  return queryItems(courseLessons(courseId), LessonOrderRowSchema, { ascending: true });
}

/** A course's statistics alone (strongly consistent): its stats item and completion shards, summed. */
export async function findCourseStats(courseId: number): Promise<CourseStats> {
  const [stats] = await readTogether([courseStatsRead(courseId, { consistent: true })]);
  return stats;
}

/**
 * A student's membership and progress (course-progress.ts) in one strongly consistent BatchGetItem, with the
 * course itself when asked: what a completion is planned from.
 */
export async function findStudentProgress(
  courseId: number,
  userId: number,
  options: { withCourse?: boolean; consistent?: boolean } = {},
): Promise<{
  course?: SpaceItem | undefined;
  membership: MembershipItem | undefined;
  progress: CourseProgress;
}> {
  const consistent = { consistent: options.consistent ?? true };
  const progressRead = courseProgressRead(courseId, userId);
  const [membership, item, course] = await readTogether([
    membershipRead(courseId, userId, consistent),
    itemRead(progressRead.key, progressRead.schema, consistent),
    options.withCourse ? spaceRead(courseId, consistent) : noRead<SpaceItem | undefined>(undefined),
  ]);
  return { course, membership, progress: courseProgressOf(membership, item) };
}
