import { type ItemKey, indexPartition, type Partition, tablePartition } from '../partition.ts';
import { type ShardedAggregate, shardedAggregate } from '../sharded-counters.ts';
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
 * `total_completions`, `published_lessons_count`, `lesson_comments_published`, `lesson_comments_pending`. A
 * course's submissions are counted by its quiz statistics (`courseQuizStatsKey`, sharded), not here, so a
 * submission writes no course-wide item.
 */
export const courseStatsKey = (courseId: number): ItemKey => spaceStatsKey(courseId);

/**
 * The completion counters (`total_completions`, `completed_students`) of students whose progress is on their own
 * progress item (`courseProgressKey`): spread over 10 shards `SPACE#<cid>#S<n>` / `STATS`, the student's id
 * choosing the shard, so a student's completion and its undo meet on one item and no completion writes the course's
 * own partition. The course's statistics are the logical item (`courseStatsKey`: the other counters, and what
 * students with progress on their membership count) plus these shards.
 */
export const courseCompletionStats = (courseId: number): ShardedAggregate =>
  shardedAggregate(courseStatsKey(courseId), 10);

/**
 * A student's progress in a course (`completed_lessons` number set, `completed_count`), in the student's own course
 * partition (beside their quiz attempts), so completions spread over the students instead of landing on the course.
 */
export const courseProgressKey = (courseId: number, userId: number): ItemKey => ({
  pk: studentQuizPartition(courseId, userId),
  sk: 'PROGRESS',
});

// ---- Quiz submissions (PRO) ----------------------------------------------------------------------------------
//
// A submission is three items: the attempt slot in the student's partition (the list row, listed for the course),
// the id pointer (a copy of the list row, listed for the lesson) and the answers item (answers, per-question
// grades, the grader's feedback) beside the slot. List rows stay small, so a page of any list costs the same
// whatever the answers weigh. The slot's and pointer's list partitions prefix their sort keys with the result (`P#`
// passed, `F#` failed): `status=passed|failed` is one begins_with. `status=all` has its own partitions, without the
// prefix, on two more copies of the row (`quizSubmissionListCopyKey`), so it is one Query in the order asked too.

/** The result part of the list partitions' sort keys (empty in the `status=all` partitions). */
export type QuizResultPrefix = 'P#' | 'F#' | '';
export const quizResultPrefix = (passed: boolean): QuizResultPrefix => (passed ? 'P#' : 'F#');

const studentQuizPartition = (courseId: number, userId: number) => `COURSE#${courseId}#USER#${userId}#QUIZ`;

/** The key of an item of one attempt of a student at a lesson's quiz (the slot, its answers). */
type AttemptKey = (courseId: number, userId: number, lessonId: number, attempt: number) => ItemKey;

/**
 * The attempt slot: Put with `attribute_not_exists(pk)`, so attempt N of a student for a lesson is taken exactly
 * once, and attempts 1..max_attempts bound the count under any concurrency.
 */
export const quizAttemptKey: AttemptKey = (courseId, userId, lessonId, attempt) => ({
  pk: studentQuizPartition(courseId, userId),
  sk: `LESSON#${pad(lessonId)}#ATTEMPT#${pad(attempt)}`,
});
/** A student's attempts at one lesson's quiz, in attempt (= submission time) order; consistent reads. */
export const studentLessonAttempts = (courseId: number, userId: number, lessonId: number): Partition =>
  tablePartition(studentQuizPartition(courseId, userId), `LESSON#${pad(lessonId)}#ATTEMPT#`);
/** All of a student's quiz attempts in a course (lesson, then attempt order). */
export const studentCourseAttempts = (courseId: number, userId: number): Partition =>
  tablePartition(studentQuizPartition(courseId, userId), 'LESSON#');

/** The answers, per-question grades and grader feedback of one attempt, beside its slot. */
export const quizAnswersKey: AttemptKey = (courseId, userId, lessonId, attempt) => ({
  pk: studentQuizPartition(courseId, userId),
  sk: `ANSWERS#LESSON#${pad(lessonId)}#ATTEMPT#${pad(attempt)}`,
});

/** Id pointer: the grading path's `{quiz_id}` is the submission id; it carries a copy of the list row. */
export const quizSubmissionKey = (submissionId: number): ItemKey => ({
  pk: `QUIZSUB#${submissionId}`,
  sk: 'QUIZSUB',
});

/**
 * The two copies of a submission's list row listed for `status=all` (every result, no prefix): one in the course's
 * three orders, one in the lesson's, beside the id pointer.
 */
export const quizSubmissionListCopyKey = (submissionId: number, scope: 'course' | 'lesson'): ItemKey => ({
  pk: `QUIZSUB#${submissionId}`,
  sk: scope === 'course' ? 'ALL#COURSE' : 'ALL#LESSON',
});

type ListScope = 'COURSE' | 'LESSON';
type ListOrder = 'TIME' | 'SCORE' | 'NAME';
type ListIndex = 'GSI1' | 'GSI2' | 'GSI3';

/**
 * A list of quiz submissions with one result: of a course (`COURSE`, on the attempt slot) or of one lesson
 * (`LESSON`, on the id pointer), in one order, each order on its own index.
 */
const quizSubmissionList =
  (scope: ListScope, order: ListOrder, index: ListIndex) =>
  (id: number, passed: boolean): Partition =>
    indexPartition(index, `${scope}#${id}#QUIZSUBS#${order}`, quizResultPrefix(passed));
/** The same lists with every result, on the list copies (`quizSubmissionListCopyKey`). */
const quizSubmissionAllList =
  (scope: ListScope, order: ListOrder, index: ListIndex) =>
  (id: number): Partition =>
    indexPartition(index, `${scope}#${id}#QUIZSUBS#ALL#${order}`);

/** GSI1 (course copy): a course's submissions, every result, by submission time. */
export const courseQuizSubmissionsAllByTime = quizSubmissionAllList('COURSE', 'TIME', 'GSI1');
/** GSI2 (course copy): a course's submissions, every result, by score. */
export const courseQuizSubmissionsAllByScore = quizSubmissionAllList('COURSE', 'SCORE', 'GSI2');
/** GSI3 (course copy): a course's submissions, every result, by student name. */
export const courseQuizSubmissionsAllByName = quizSubmissionAllList('COURSE', 'NAME', 'GSI3');
/** GSI1 (lesson copy): one lesson's submissions, every result, by submission time. */
export const lessonQuizSubmissionsAllByTime = quizSubmissionAllList('LESSON', 'TIME', 'GSI1');
/** GSI2 (lesson copy): one lesson's submissions, every result, by score. */
export const lessonQuizSubmissionsAllByScore = quizSubmissionAllList('LESSON', 'SCORE', 'GSI2');
/** GSI3 (lesson copy): one lesson's submissions, every result, by student name. */
export const lessonQuizSubmissionsAllByName = quizSubmissionAllList('LESSON', 'NAME', 'GSI3');

/** GSI1 (attempt slot): a course's submissions with one result, by submission time. */
export const courseQuizSubmissionsByTime = quizSubmissionList('COURSE', 'TIME', 'GSI1');
/** GSI1 (attempt slot): every slot of a course, both results (operator paths: the list copies' backfill). */
export const courseQuizSlots = (courseId: number): Partition =>
  indexPartition('GSI1', `COURSE#${courseId}#QUIZSUBS#TIME`);
/** GSI2 (attempt slot): a course's submissions with one result, by score. */
export const courseQuizSubmissionsByScore = quizSubmissionList('COURSE', 'SCORE', 'GSI2');
/** GSI3 (attempt slot): a course's submissions with one result, by the student's name. */
export const courseQuizSubmissionsByName = quizSubmissionList('COURSE', 'NAME', 'GSI3');
/** GSI1 (id pointer): one lesson's submissions with one result, by submission time. */
export const lessonQuizSubmissionsByTime = quizSubmissionList('LESSON', 'TIME', 'GSI1');
/** GSI2 (id pointer): one lesson's submissions with one result, by score. */
export const lessonQuizSubmissionsByScore = quizSubmissionList('LESSON', 'SCORE', 'GSI2');
/** GSI3 (id pointer): one lesson's submissions with one result, by the student's name. */
export const lessonQuizSubmissionsByName = quizSubmissionList('LESSON', 'NAME', 'GSI3');

/**
 * Every submission list by scope and order (the contract's `orderby`): `byResult` lists one result (on the attempt
 * slot for a course, on the id pointer for a lesson), `all` every result (on the list copies). The item builders
 * and the administrators' list read the same table, so a list is named in one place.
 */
export const quizSubmissionLists = {
  course: {
    byResult: {
      submitted_at: courseQuizSubmissionsByTime,
      score: courseQuizSubmissionsByScore,
      user_name: courseQuizSubmissionsByName,
    },
    all: {
      submitted_at: courseQuizSubmissionsAllByTime,
      score: courseQuizSubmissionsAllByScore,
      user_name: courseQuizSubmissionsAllByName,
    },
  },
  lesson: {
    byResult: {
      submitted_at: lessonQuizSubmissionsByTime,
      score: lessonQuizSubmissionsByScore,
      user_name: lessonQuizSubmissionsByName,
    },
    all: {
      submitted_at: lessonQuizSubmissionsAllByTime,
      score: lessonQuizSubmissionsAllByScore,
      user_name: lessonQuizSubmissionsAllByName,
    },
  },
} as const;

/** Sort keys of the list partitions: the result, the order's value, then time and id for a stable order. */
export const quizTimeSort = (prefix: QuizResultPrefix, submittedAt: string, submissionId: number): string =>
  `${prefix}${submittedAt}#${pad(submissionId)}`;
export const quizScoreSort = (
  prefix: QuizResultPrefix,
  score: number,
  submittedAt: string,
  submissionId: number,
): string => `${prefix}${String(score).padStart(3, '0')}#${submittedAt}#${pad(submissionId)}`;
/**
 * By name: the folded name (lower case, accents removed, spaces collapsed, first 64 characters) hex-encoded, so
 * its byte order is the name's code-point order and no character of a name can sort below the `#` separator
 * ("ann" before "ann-marie" before "anna"); then the user id keeps namesakes apart.
 */
export const quizNameSort = (
  prefix: QuizResultPrefix,
  displayName: string,
  userId: number,
  submittedAt: string,
  submissionId: number,
): string =>
  `${prefix}${Buffer.from(foldName(displayName), 'utf8').toString('hex')}#${pad(userId)}#${submittedAt}#${pad(submissionId)}`;

const foldName = (name: string): string =>
  [...name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim()]
    .slice(0, 64)
    .join('');

/**
 * Quiz statistics for one filter scope: `total_submissions`, `passed`, `failed`, `sum_score_passed`,
 * `sum_score_failed`, `sum_time_passed`, `sum_time_failed`. Every submission and grading moves the four scopes it
 * belongs to. Course and lesson scopes are the logical keys of sharded aggregates (quiz-submission-item.ts: the
 * key itself holds what submissions with counter ids counted, shards `<pk>#S<n>` what later ones count); the
 * student's scopes live in the student's partition.
 */
export const courseQuizStatsKey = (courseId: number): ItemKey => ({
  pk: `SPACE#${courseId}`,
  sk: 'QUIZSTATS',
});
export const lessonQuizStatsKey = (courseId: number, lessonId: number): ItemKey => ({
  pk: `SPACE#${courseId}`,
  sk: `QUIZSTATS#LESSON#${pad(lessonId)}`,
});
export const studentQuizStatsKey = (courseId: number, userId: number): ItemKey => ({
  pk: studentQuizPartition(courseId, userId),
  sk: 'QUIZSTATS',
});
export const studentLessonQuizStatsKey = (courseId: number, userId: number, lessonId: number): ItemKey => ({
  pk: studentQuizPartition(courseId, userId),
  sk: `QUIZSTATS#LESSON#${pad(lessonId)}`,
});
