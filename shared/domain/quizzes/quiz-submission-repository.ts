import * as v from 'valibot';
import {
  quizAnswersKey,
  quizAttemptKey,
  quizSubmissionKey,
  quizSubmissionLists,
  studentCourseAttempts,
  studentLessonAttempts,
} from '../../db/keys/courses.ts';
import { CounterDeltas, counterUpdate } from '../../db/counters.ts';
import { IdTaken } from '../../db/ids.ts';
import { queryPage } from '../../db/query-page.ts';
import { batchGetRawItems, getItem, queryAll, queryItems } from '../../db/reads.ts';
import { putAction, type TransactAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import type { QuizResultFilter, QuizResultOrder } from '../../vocabulary/courses.ts';
import type { LessonCompletionPlan } from '../courses/index.ts';
import {
  EMPTY_QUIZ_STATS,
  type QuizAnswers,
  QuizAnswersSchema,
  type QuizStats,
  QuizStatsSchema,
  type QuizSubmission,
  QuizSubmissionSchema,
  type QuizStatsScope,
  statsContribution,
  statsItemOf,
  statsItemsOf,
  statsScopesOf,
  storedQuizAnswers,
  storedQuizAttempt,
  storedQuizListCopies,
  storedQuizSubmissionPointer,
} from './quiz-submission-item.ts';

/**
 * Quiz submissions, their answers and statistics, one method per access pattern (ACCESS_PATTERNS.md, "Quizzes").
 * Every write that changes what the statistics count moves them in the same TransactWriteItems.
 */

/** The student's latest attempt at a lesson's quiz (consistent: decides the next attempt number). */
export async function findLatestAttempt(
  courseId: number,
  userId: number,
  lessonId: number,
): Promise<QuizSubmission | undefined> {
  const [latest] = await queryItems(studentLessonAttempts(courseId, userId, lessonId), QuizSubmissionSchema, {
    ascending: false,
    limit: 1,
    consistent: true,
  });
  return latest;
}

export function findAttempt(
  courseId: number,
  userId: number,
  lessonId: number,
  attempt: number,
): Promise<QuizSubmission | undefined> {
  return getItem(quizAttemptKey(courseId, userId, lessonId, attempt), QuizSubmissionSchema, {
    consistent: true,
  });
}

export function findAttemptAnswers(
  row: Pick<QuizSubmission, 'course_id' | 'user_id' | 'lesson_id' | 'attempt_number'>,
): Promise<QuizAnswers | undefined> {
  return getItem(
    quizAnswersKey(row.course_id, row.user_id, row.lesson_id, row.attempt_number),
    QuizAnswersSchema,
    { consistent: true },
  );
}

/** A submission by id (the grading path), through its pointer. */
export function findSubmissionById(submissionId: number): Promise<QuizSubmission | undefined> {
  return getItem(quizSubmissionKey(submissionId), QuizSubmissionSchema, { consistent: true });
}

/**
 * The statistics of one scope: the sum of its items (one BatchGetItem of at most 11 keys whatever the number of
 * submissions; strongly consistent, so every completed submission or grading is counted); zeros when nothing was
 * counted yet.
 */
export async function findQuizStats(scope: QuizStatsScope): Promise<QuizStats> {
  return sumQuizStats(await batchGetRawItems(statsItemsOf(scope), true));
}

/** The statistics that stats items (a scope's item and shards, as read) add up to. */
export function sumQuizStats(items: readonly (Record<string, unknown> | undefined)[]): QuizStats {
  const sums: Record<string, number> = {};
  for (const item of items) {
    for (const [name, value] of Object.entries(item ?? {})) {
      if (name in EMPTY_QUIZ_STATS && typeof value === 'number') sums[name] = (sums[name] ?? 0) + value;
    }
  }
  return v.parse(QuizStatsSchema, sums);
}

export type WriteOutcome = 'written' | 'slot_taken' | 'changed' | 'completion_changed';

/**
 * Stores a new attempt: the slot (Put `attribute_not_exists`: the attempt number is taken once), its pointer,
 * answers and two list copies (`status=all`), the four statistics scopes (the course-wide two on the shard of the submission's id: no course item is
 * written per submission), and the lesson completion when the attempt passed and completes the lesson, all in one
 * transaction. Answers `slot_taken` when a concurrent
 * submission took the number, `completion_changed` when the student's progress changed since it was read; nothing is
 * written then. A taken submission id (the id pointer's guard, with the slot free) throws `IdTaken`.
 */
export async function insertSubmission(
  row: QuizSubmission,
  answers: QuizAnswers,
  completion: LessonCompletionPlan | undefined,
): Promise<WriteOutcome> {
  const actions: TransactAction[] = [
    putAction(storedQuizAttempt(row), { ifAbsent: true }),
    putAction(storedQuizSubmissionPointer(row), { ifAbsent: true }),
    putAction(storedQuizAnswers(row, answers), { ifAbsent: true }),
    ...storedQuizListCopies(row).map((copy) => putAction(copy)),
    ...statsScopesOf(row).map((scope) => counterUpdate(statsItemOf(scope, row.id), statsContribution(row))),
    ...(completion ? [...completion.statsUpdates, completion.progressUpdate] : []),
  ];
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return 'written';
  if (outcome.failed.includes(0)) return 'slot_taken';
  if (completion && outcome.failed.includes(actions.length - 1)) return 'completion_changed';
  if (outcome.failed.includes(1)) throw new IdTaken(row.id);
  throw new Error('Quiz statistics disagree with the submissions (a decrement below zero was refused)');
}

/**
 * Stores a grading: the new row at its slot on the condition that the slot still has the revision the grader read
 * (so two graders cannot both apply their deltas), the pointer and list copies re-keyed with it, the answers item, the statistics
 * moved by the difference, and a completion when the grading makes the attempt pass. `changed`: another grading
 * came first; `completion_changed`: the student's progress changed since it was read. Nothing is written then.
 */
export async function writeGrading(
  before: QuizSubmission,
  after: QuizSubmission,
  answers: QuizAnswers,
  completion: LessonCompletionPlan | undefined,
): Promise<WriteOutcome> {
  const deltas = new CounterDeltas().addAll(statsContribution(before, -1)).addAll(statsContribution(after));
  const actions: TransactAction[] = [
    putAction(storedQuizAttempt(after), {
      condition: {
        ConditionExpression: 'revision = :seen',
        ExpressionAttributeValues: { ':seen': before.revision },
      },
    }),
    putAction(storedQuizSubmissionPointer(after)),
    putAction(storedQuizAnswers(after, answers)),
    ...storedQuizListCopies(after).map((copy) => putAction(copy)),
    ...(deltas.isEmpty
      ? []
      : statsScopesOf(after).map((scope) => counterUpdate(statsItemOf(scope, after.id), deltas))),
    ...(completion ? [...completion.statsUpdates, completion.progressUpdate] : []),
  ];
  const outcome = await transactWriteIfConditionsHold(actions);
  if (outcome.written) return 'written';
  if (outcome.failed.includes(0)) return 'changed';
  if (completion && outcome.failed.includes(actions.length - 1)) return 'completion_changed';
  throw new Error('Quiz statistics disagree with the submissions (a decrement below zero was refused)');
}

// ---- The administrators' list -----------------------------------------------------------------------------

export interface ResultsPageQuery {
  readonly courseId: number;
  readonly lessonId?: number | undefined;
  readonly status: QuizResultFilter;
  readonly orderby: QuizResultOrder;
  readonly ascending: boolean;
  readonly page: number;
  readonly perPage: number;
  /** From the scope's stats: a page past it reads nothing. */
  readonly total: number;
}

/**
 * One page of a course's (or one lesson's) submissions in the requested order: a key condition on the index
 * partition of that scope and order: `begins_with` the result for `passed`/`failed` (the slot's and pointer's
 * partitions), the list copies' partition for `all`. Page 1 reads one Query page whatever the number of submissions.
 */
export async function queryResultsPage(query: ResultsPageQuery): Promise<QuizSubmission[]> {
  const scope = query.lessonId === undefined ? 'course' : 'lesson';
  const scopeId = query.lessonId ?? query.courseId;
  const partition =
    query.status === 'all'
      ? quizSubmissionLists[scope].all[query.orderby](scopeId)
      : quizSubmissionLists[scope].byResult[query.orderby](scopeId, query.status === 'passed');
  const page = await queryPage({
    partition,
    schema: QuizSubmissionSchema,
    ascending: query.ascending,
    page: query.page,
    perPage: query.perPage,
    total: query.total,
  });
  return page.items;
}

/**
 * Every attempt of one student in a course (or at one lesson): the student's own partition, bounded by that
 * student's attempts, never by the course's size. The list's `user_id` filter sorts and pages these in memory.
 */
export async function findStudentAttempts(
  courseId: number,
  userId: number,
  lessonId?: number,
): Promise<QuizSubmission[]> {
  const partition =
    lessonId === undefined
      ? studentCourseAttempts(courseId, userId)
      : studentLessonAttempts(courseId, userId, lessonId);
  const rows: QuizSubmission[] = [];
  for await (const batch of queryAll(partition, QuizSubmissionSchema)) rows.push(...batch);
  return rows;
}
