import { courseLessons, quizKey } from '../../db/keys/courses.ts';
import { membershipKey, spaceKey } from '../../db/keys/spaces.ts';
import { itemRead } from '../../db/read-together.ts';
import { getItem, getItems, queryItems } from '../../db/reads.ts';
import {
  type MembershipItem,
  MembershipItemSchema,
  type SpaceItem,
  SpaceItemSchema,
} from '../spaces/index.ts';
import type { CourseStats } from './course-defaults.ts';
import { type LessonOrderRow, LessonOrderRowSchema, type QuizItem, QuizItemSchema } from './course-item.ts';
import {
  type CourseProgress,
  type CourseProgressItem,
  courseProgressOf,
  courseProgressRead,
} from './course-progress.ts';
import { courseStatsReads, sumCourseStats } from './course-repository.ts';

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
  return sumCourseStats(
    await getItems<Record<string, number>[]>(courseStatsReads(courseId) as never, { consistent: true }),
  );
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
  const [membership, item, course] = await getItems<[MembershipItem, CourseProgressItem, SpaceItem]>(
    [
      { key: membershipKey(courseId, userId), schema: MembershipItemSchema },
      courseProgressRead(courseId, userId),
      ...(options.withCourse ? [{ key: spaceKey(courseId), schema: SpaceItemSchema }] : []),
    ] as never,
    { consistent: options.consistent ?? true },
  );
  return { course, membership, progress: courseProgressOf(membership, item) };
}
