import * as v from 'valibot';
import {
  courseQuizStatsKey,
  lessonQuizStatsKey,
  quizAnswersKey,
  quizAttemptKey,
  quizNameSort,
  quizResultPrefix,
  quizScoreSort,
  quizSubmissionKey,
  quizSubmissionListCopyKey,
  quizSubmissionLists,
  quizTimeSort,
  studentLessonQuizStatsKey,
  studentQuizStatsKey,
} from '../../db/keys/courses.ts';
import { TIME_ID_FLOOR } from '../../db/ids.ts';
import { indexEntry, type ItemKey } from '../../db/partition.ts';
import {
  type ShardedAggregate,
  shardedAggregate,
  shardKey,
  shardKeys,
  shardOf,
} from '../../db/sharded-counters.ts';
import { QUIZ_SUBMISSION_STATUSES } from '../../vocabulary/courses.ts';

const integer = v.pipe(v.number(), v.integer());
const { course, lesson } = quizSubmissionLists;

/**
 * A submission's list row, stored twice: at its attempt slot (listed in the course's three orders) and at its id
 * pointer (listed in the lesson's three orders). Small on purpose (answers live in the answers item), so every
 * list page costs the same whatever was answered.
 */
export const QuizSubmissionSchema = v.object({
  id: integer,
  user_id: integer,
  course_id: integer,
  lesson_id: integer,
  attempt_number: integer,
  score: integer,
  points_earned: integer,
  points_possible: integer,
  total_questions: integer,
  correct_answers: integer,
  passed: v.boolean(),
  passing_score: integer,
  time_spent: integer,
  status: v.picklist(QUIZ_SUBMISSION_STATUSES),
  /** UTC ISO timestamps. */
  submitted_at: v.string(),
  graded_at: v.nullable(v.string()),
  graded_by: v.nullable(integer),
  /** The student's display name when submitting: the by-name order's key (rows show the current profile). */
  sort_name: v.string(),
  /** Moves with every grading; a grading writes on the condition that it is still the one it read. */
  revision: integer,
});
export type QuizSubmission = v.InferOutput<typeof QuizSubmissionSchema>;

/**
 * The three sort keys of a row: by time, by score, by name; each starts with the row's result, or with nothing in
 * the `status=all` partitions (`withResult` false).
 */
function sorts(row: QuizSubmission, withResult = true) {
  const prefix = withResult ? quizResultPrefix(row.passed) : '';
  return {
    prefix,
    time: quizTimeSort(prefix, row.submitted_at, row.id),
    score: quizScoreSort(prefix, row.score, row.submitted_at, row.id),
    name: quizNameSort(prefix, row.sort_name, row.user_id, row.submitted_at, row.id),
  };
}

/** The attempt slot item (`quizAttemptKey`), in the course's lists. */
export function storedQuizAttempt(row: QuizSubmission) {
  const { time, score, name } = sorts(row);
  return {
    ...quizAttemptKey(row.course_id, row.user_id, row.lesson_id, row.attempt_number),
    entity: 'quiz_attempt',
    ...row,
    ...indexEntry(course.byResult.submitted_at(row.course_id, row.passed), time),
    ...indexEntry(course.byResult.score(row.course_id, row.passed), score),
    ...indexEntry(course.byResult.user_name(row.course_id, row.passed), name),
  };
}

/** The id pointer item (`quizSubmissionKey`), in the lesson's lists. */
export function storedQuizSubmissionPointer(row: QuizSubmission) {
  const { time, score, name } = sorts(row);
  return {
    ...quizSubmissionKey(row.id),
    entity: 'quiz_submission',
    ...row,
    ...indexEntry(lesson.byResult.submitted_at(row.lesson_id, row.passed), time),
    ...indexEntry(lesson.byResult.score(row.lesson_id, row.passed), score),
    ...indexEntry(lesson.byResult.user_name(row.lesson_id, row.passed), name),
  };
}

/**
 * The two list copies (`quizSubmissionListCopyKey`) that list a row for `status=all`: in the course's three orders
 * and in the lesson's, with the sort keys of the prefixed lists minus the result, so the one Query of `status=all`
 * orders rows exactly as the merge of the passed and failed ranges would.
 */
export function storedQuizListCopies(row: QuizSubmission) {
  const { time, score, name } = sorts(row, false);
  return [
    {
      ...quizSubmissionListCopyKey(row.id, 'course'),
      entity: 'quiz_submission_copy',
      ...row,
      ...indexEntry(course.all.submitted_at(row.course_id), time),
      ...indexEntry(course.all.score(row.course_id), score),
      ...indexEntry(course.all.user_name(row.course_id), name),
    },
    {
      ...quizSubmissionListCopyKey(row.id, 'lesson'),
      entity: 'quiz_submission_copy',
      ...row,
      ...indexEntry(lesson.all.submitted_at(row.lesson_id), time),
      ...indexEntry(lesson.all.score(row.lesson_id), score),
      ...indexEntry(lesson.all.user_name(row.lesson_id), name),
    },
  ];
}

/**
 * The key that orders a row in a list of the given order: its sort key in the `status=all` partitions (the
 * prefixed lists' key after the result). In-memory sorting uses it to agree with the indexes.
 */
export const rowOrderKey = (row: QuizSubmission, order: 'submitted_at' | 'score' | 'user_name'): string => {
  const keys = sorts(row, false);
  return order === 'score' ? keys.score : order === 'user_name' ? keys.name : keys.time;
};

const AnswerValueSchema = v.union([v.string(), v.array(v.string())]);
const QuestionGradeSchema = v.object({
  is_correct: v.boolean(),
  points_earned: integer,
  pending: v.boolean(),
});

/** The answers item (`quizAnswersKey`): what was answered, how each answer was graded, the grader's feedback. */
export const QuizAnswersSchema = v.object({
  submission_id: integer,
  /** How the submission named its questions (decides the submit response's shape). */
  key_style: v.picklist(['id', 'slug']),
  /** By question id, answered questions only. */
  answers: v.record(v.string(), AnswerValueSchema),
  grades: v.record(v.string(), QuestionGradeSchema),
  /** The grader's feedback; null until a grader writes one (responses then show an automatic message). */
  feedback: v.nullable(v.string()),
});
export type QuizAnswers = v.InferOutput<typeof QuizAnswersSchema>;

export const storedQuizAnswers = (
  row: Pick<QuizSubmission, 'course_id' | 'user_id' | 'lesson_id' | 'attempt_number'>,
  answers: QuizAnswers,
) => ({
  ...quizAnswersKey(row.course_id, row.user_id, row.lesson_id, row.attempt_number),
  entity: 'quiz_answers',
  ...answers,
});

// ---- Statistics ---------------------------------------------------------------------------------------------

/** A stats item's counters (0 when absent). Averages are sums ÷ counts, per result so status filters are exact. */
export const QuizStatsSchema = v.object({
  total_submissions: v.optional(integer, 0),
  passed: v.optional(integer, 0),
  failed: v.optional(integer, 0),
  sum_score_passed: v.optional(integer, 0),
  sum_score_failed: v.optional(integer, 0),
  sum_time_passed: v.optional(integer, 0),
  sum_time_failed: v.optional(integer, 0),
});
export type QuizStats = v.InferOutput<typeof QuizStatsSchema>;
export const EMPTY_QUIZ_STATS: QuizStats = v.parse(QuizStatsSchema, {});

/** What one row adds to the stats of every scope it belongs to (its negation removes it). */
export function statsContribution(
  row: Pick<QuizSubmission, 'passed' | 'score' | 'time_spent'>,
  sign: 1 | -1 = 1,
): Record<string, number> {
  const result = row.passed ? 'passed' : 'failed';
  return {
    total_submissions: sign,
    [result]: sign,
    [`sum_score_${result}`]: sign * row.score,
    [`sum_time_${result}`]: sign * row.time_spent,
  };
}

/**
 * Shards of each course-wide statistics scope (course, lesson). Every submission and grading of a course moves
 * these two scopes, so a single item each would take every submission of the course; spread over shards (in
 * partitions of their own), a busy course's submissions land on `QUIZ_STATS_SHARDS` partitions. The student's two
 * scopes live in the student's partition and stay single items.
 */
export const QUIZ_STATS_SHARDS = 10;

/**
 * A statistics scope: its item (`key`) and, for a course-wide scope, the shards that submissions with time ids
 * move. Invariant: a submission always moves the same item of a scope, the item of its id (`statsItemOf`), so its
 * grading's decrement meets its increment and the floors of `counterUpdate` hold per item. Submissions with
 * counter ids (stored before time ids) keep moving the scope's item, so statistics written before shards existed
 * stay exact. The scope's statistics are the sum over all its items (`statsItemsOf`).
 */
export interface QuizStatsScope {
  readonly key: ItemKey;
  readonly shards?: ShardedAggregate | undefined;
}

const courseWideScope = (key: ItemKey): QuizStatsScope => ({
  key,
  shards: shardedAggregate(key, QUIZ_STATS_SHARDS),
});

/** The item of `scope` that the submission `submissionId` moves. */
export function statsItemOf(scope: QuizStatsScope, submissionId: number): ItemKey {
  if (!scope.shards || submissionId < TIME_ID_FLOOR) return scope.key;
  return shardKey(scope.shards, shardOf(scope.shards, submissionId));
}

/** Every item whose counters sum to the scope's statistics. */
export const statsItemsOf = (scope: QuizStatsScope): ItemKey[] =>
  scope.shards ? [scope.key, ...shardKeys(scope.shards)] : [scope.key];

/** The four stats scopes a row counts in: course, lesson, student, student + lesson. */
export const statsScopesOf = (
  row: Pick<QuizSubmission, 'course_id' | 'lesson_id' | 'user_id'>,
): QuizStatsScope[] => [
  courseWideScope(courseQuizStatsKey(row.course_id)),
  courseWideScope(lessonQuizStatsKey(row.course_id, row.lesson_id)),
  { key: studentQuizStatsKey(row.course_id, row.user_id) },
  { key: studentLessonQuizStatsKey(row.course_id, row.user_id, row.lesson_id) },
];

/** The stats scope of the list's filter. */
export function statsScopeOf(
  courseId: number,
  filter: { readonly lessonId?: number | undefined; readonly userId?: number | undefined },
): QuizStatsScope {
  if (filter.userId !== undefined) {
    return {
      key:
        filter.lessonId !== undefined
          ? studentLessonQuizStatsKey(courseId, filter.userId, filter.lessonId)
          : studentQuizStatsKey(courseId, filter.userId),
    };
  }
  return courseWideScope(
    filter.lessonId !== undefined
      ? lessonQuizStatsKey(courseId, filter.lessonId)
      : courseQuizStatsKey(courseId),
  );
}
