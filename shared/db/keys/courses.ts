import { type ItemKey, indexPartition, type Partition, tablePartition } from '../partition.ts';
import { pad } from './sort.ts';
import { spaceStatsKey } from './spaces.ts';

/** Courses are spaces; lessons are posts of type `course_lesson`; a lesson's quiz sits in the lesson's partition. */

/** A lesson's place in its course: order rows in the course partition (position, then id). */
export const lessonOrderKey = (courseId: number, position: number, lessonId: number): ItemKey => ({
  pk: `SPACE#${courseId}`,
  sk: `LESSON#${pad(position)}#${pad(lessonId)}`,
});
/** The lessons of a course in order. */
export const courseLessons = (courseId: number): Partition => tablePartition(`SPACE#${courseId}`, 'LESSON#');

export const quizKey = (lessonId: number): ItemKey => ({ pk: `POST#${lessonId}`, sk: 'QUIZ' });

/**
 * Course aggregates live on the space stats item of the course: `students_count`, `completed_students`,
 * `total_completions`, `published_lessons_count`, `lesson_comments_published`, `lesson_comments_pending`,
 * `quiz_submissions_count`.
 */
export const courseStatsKey = (courseId: number): ItemKey => spaceStatsKey(courseId);

// ---- Quiz submissions (PRO) ----------------------------------------------------------------------------------

/**
 * A submission is stored at its attempt slot: Put with `attribute_not_exists(pk)`, so attempt N of a student for a
 * lesson is taken exactly once, and attempts 1..max_attempts bound the count under any concurrency.
 */
export const quizAttemptKey = (
  courseId: number,
  userId: number,
  lessonId: number,
  attempt: number,
): ItemKey => ({
  pk: `COURSE#${courseId}#USER#${userId}#QUIZ`,
  sk: `LESSON#${pad(lessonId)}#ATTEMPT#${pad(attempt)}`,
});
/** A student's attempts at one lesson's quiz (consistent read; descending + Limit 1 = latest). */
export const studentLessonAttempts = (courseId: number, userId: number, lessonId: number): Partition =>
  tablePartition(`COURSE#${courseId}#USER#${userId}#QUIZ`, `LESSON#${pad(lessonId)}#ATTEMPT#`);
/** All of a student's quiz attempts in a course. */
export const studentCourseAttempts = (courseId: number, userId: number): Partition =>
  tablePartition(`COURSE#${courseId}#USER#${userId}#QUIZ`, 'LESSON#');

/** GSI1 (attempt item): quiz submissions of a course, newest first. */
export const courseQuizSubmissions = (courseId: number): Partition =>
  indexPartition('GSI1', `COURSE#${courseId}#QUIZSUBS`);
/** GSI2 (attempt item): submissions of a course with one result, newest first; re-keyed on grading. */
export const courseQuizSubmissionsWithResult = (courseId: number, passed: boolean): Partition =>
  indexPartition('GSI2', `COURSE#${courseId}#QUIZSUBS#${passed ? 'PASSED' : 'FAILED'}`);
/** GSI3 (attempt item): submissions of one lesson, newest first. */
export const lessonQuizSubmissions = (lessonId: number): Partition =>
  indexPartition('GSI3', `LESSON#${lessonId}#QUIZSUBS`);

/** Id pointer (the grading path's `{quiz_id}` is the submission id) → the attempt; carries two more orderings. */
export const quizSubmissionKey = (submissionId: number): ItemKey => ({
  pk: `QUIZSUB#${submissionId}`,
  sk: 'QUIZSUB',
});
/** GSI1 (id pointer): submissions of a course by score, then time; re-keyed on grading. */
export const courseQuizSubmissionsByScore = (courseId: number): Partition =>
  indexPartition('GSI1', `COURSE#${courseId}#QUIZSUBS#BYSCORE`);
export const scoreSort = (score: number, submittedAt: string, submissionId: number): string =>
  `${String(score).padStart(3, '0')}#${submittedAt}#${pad(submissionId)}`;
/** GSI3 (id pointer): submissions of one lesson with one result, newest first. */
export const lessonQuizSubmissionsWithResult = (lessonId: number, passed: boolean): Partition =>
  indexPartition('GSI3', `LESSON#${lessonId}#QUIZSUBS#${passed ? 'PASSED' : 'FAILED'}`);

/**
 * Quiz statistics of a course for one filter scope (whole course, one lesson, one student, or both), in the course
 * partition: `total_submissions`, `passed`, `failed`, `sum_score_passed`, `sum_score_failed`, `sum_time_passed`,
 * `sum_time_failed`. Every submission and grading ADDs to the four scopes it belongs to.
 */
export const quizStatsKey = (
  courseId: number,
  scope: { lessonId?: number | undefined; userId?: number | undefined } = {},
): ItemKey => ({
  pk: `SPACE#${courseId}`,
  sk: `QUIZSTATS${scope.lessonId !== undefined ? `#LESSON#${pad(scope.lessonId)}` : ''}${
    scope.userId !== undefined ? `#USER#${pad(scope.userId)}` : ''
  }`,
});
