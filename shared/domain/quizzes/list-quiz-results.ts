import { forbidden } from '../../errors/app-error.ts';
import type { QuizResultFilter, QuizResultOrder } from '../../vocabulary/courses.ts';
import { type Caller, isCourseAdmin } from '../auth/index.ts';
import { hidesCourse } from '../courses/index.ts';
import type { PostItem } from '../feeds/index.ts';
import { type MemberSummary, toMemberSummary, type UserItem } from '../users/index.ts';
import { toSqlDateTime } from '../dates.ts';
import { quizNotFound } from './quiz-errors.ts';
import { type QuizStatistics, statisticsFor } from './quiz-statistics.ts';
import { type QuizSubmission, rowOrderKey, statsScopeOf } from './quiz-submission-item.ts';
import { findResultsContext, findRowsUsersAndLessons } from './quiz-context-repository.ts';
import { findStudentAttempts, queryResultsPage } from './quiz-submission-repository.ts';

/** The list's query as the contract delivers it (defaults applied there). */
export interface ListQuizResultsInput {
  readonly lesson_id?: number | undefined;
  readonly user_id?: number | undefined;
  readonly status: QuizResultFilter;
  readonly page: number;
  readonly per_page: number;
  readonly orderby: QuizResultOrder;
  readonly order: 'asc' | 'desc';
}

export interface QuizResultRow {
  id: number;
  xprofile: MemberSummary | null;
  lesson: { id: number; title: string; slug: string };
  score: number;
  total_questions: number;
  correct_answers: number;
  passed: boolean;
  attempt_number: number;
  time_spent: number;
  status: QuizSubmission['status'];
  submitted_at: string;
}

export interface QuizResultsPage {
  readonly items: QuizResultRow[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  readonly statistics: QuizStatistics;
}

/**
 * The administrators' results of a course (community admins and the course's admins; others 403
 * `rest_forbidden`; no such course 404 `quiz_not_found`).
 *
 * `statistics` and `pagination.total` come from the stats of the filter's scope (course, lesson, student,
 * student + lesson: one item, or for the course-wide scopes the sum of their shards in one BatchGetItem),
 * restricted to the result filter. The page comes from a key condition on the index
 * partition of the scope and order (see the repository); with `user_id`, from the student's own attempts, which
 * are bounded by that student's attempts, sorted in memory by the same keys the indexes use. Either way page 1
 * costs the same for 100 or 100 000 submissions.
 */
export async function listQuizResults(
  caller: Caller,
  courseId: number,
  input: ListQuizResultsInput,
): Promise<QuizResultsPage> {
  const scope = { lessonId: input.lesson_id, userId: input.user_id };
  // The course, the caller's membership and the scope's stats in one BatchGetItem.
  const { course, membership, stats } = await findResultsContext(
    courseId,
    caller.id,
    statsScopeOf(courseId, scope),
  );
  if (course?.type !== 'course' || hidesCourse(caller, course, membership)) throw quizNotFound();
  if (!isCourseAdmin(caller, membership)) throw forbidden();

  const statistics = statisticsFor(stats, input.status);
  const total = statistics.total_submissions;
  const rows =
    input.user_id === undefined
      ? await queryResultsPage({
          courseId,
          lessonId: input.lesson_id,
          status: input.status,
          orderby: input.orderby,
          ascending: input.order === 'asc',
          page: input.page,
          perPage: input.per_page,
          total,
        })
      : pageOfStudentAttempts(await findStudentAttempts(courseId, input.user_id, input.lesson_id), input);

  // The page's students and lessons in one BatchGetItem.
  const { users, lessons: lessonById } =
    rows.length > 0
      ? await findRowsUsersAndLessons(
          rows.map((row) => row.user_id),
          rows.map((row) => row.lesson_id),
        )
      : { users: new Map<number, UserItem>(), lessons: new Map<number, PostItem>() };
  return {
    items: rows.map((row) => {
      const user = users.get(row.user_id);
      const lesson = lessonById.get(row.lesson_id);
      return {
        id: row.id,
        xprofile: user ? toMemberSummary(user) : null,
        lesson: { id: row.lesson_id, title: lesson?.title ?? '', slug: lesson?.slug ?? '' },
        score: row.score,
        total_questions: row.total_questions,
        correct_answers: row.correct_answers,
        passed: row.passed,
        attempt_number: row.attempt_number,
        time_spent: row.time_spent,
        status: row.status,
        submitted_at: toSqlDateTime(row.submitted_at),
      };
    }),
    total,
    page: input.page,
    perPage: input.per_page,
    statistics,
  };
}

/** Filter, order and page one student's attempts in memory, in exactly the order the index partitions keep. */
function pageOfStudentAttempts(rows: QuizSubmission[], input: ListQuizResultsInput): QuizSubmission[] {
  const sign = input.order === 'asc' ? 1 : -1;
  return rows
    .filter((row) => input.status === 'all' || row.passed === (input.status === 'passed'))
    .map((row) => ({ row, key: rowOrderKey(row, input.orderby) }))
    .sort((a, b) => (a.key < b.key ? -sign : a.key > b.key ? sign : 0))
    .slice((input.page - 1) * input.per_page, input.page * input.per_page)
    .map(({ row }) => row);
}
