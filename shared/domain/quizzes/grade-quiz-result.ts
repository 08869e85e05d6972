import { forbidden, invalidParams } from '../../errors/app-error.ts';
import { type Caller, isCourseAdmin } from '../auth/index.ts';
import {
  announceLessonCompletion,
  findCourseLessons,
  hidesCourse,
  type LessonOrderRow,
  type QuizItem,
  planLessonCompletion,
} from '../courses/index.ts';
import { nowIso, toSqlDateTime } from '../dates.ts';
import { type GraderVerdict, regrade } from './quiz-grading.ts';
import { quizNotFound } from './quiz-errors.ts';
import { feedbackOf } from './quiz-mapper.ts';
import type { QuizAnswers, QuizSubmission } from './quiz-submission-item.ts';
import { findGradingContext, findGradingTarget } from './quiz-context-repository.ts';
import { findSubmissionById, writeGrading } from './quiz-submission-repository.ts';

/** The admin update body (contract "Admin update"); every field optional. */
export interface GradeQuizResultInput {
  readonly score?: number | undefined;
  readonly passed?: boolean | undefined;
  readonly feedback?: string | undefined;
  /** Per-answer grades by question id. */
  readonly answers?: Readonly<Record<string, GraderVerdict>> | undefined;
}

/**
 * Manual grading by a community admin or one of the course's admins (decisions.md "Quizzes"). `{quiz_id}` is the
 * submission id; a submission of another course is 404 `quiz_not_found`, like an unknown one.
 *
 * The attempt becomes `graded` with `graded_at` and `graded_by`. Per-answer grades replace those answers' grades
 * and recompute the score unless `score` is given; `passed` follows the score unless given. The statistics move by
 * the difference and the list orders (result, score) are re-keyed in the same transaction, conditioned on the
 * attempt's revision, so concurrent graders apply one after the other. A grading that makes the attempt pass
 * completes the lesson like a passing submission does.
 */
export async function gradeQuizResult(
  caller: Caller,
  courseId: number,
  submissionId: number,
  input: GradeQuizResultInput,
) {
  // Three rounds: the course, the grader and the submission's pointer; the attempt, its answers, the quiz and the
  // student's progress beside the course's lesson rows; the transaction.
  const first = await findGradingContext(courseId, caller.id, submissionId);
  const { course, membership, grader } = first;
  if (course?.type !== 'course' || hidesCourse(caller, course, membership)) throw quizNotFound();
  if (!isCourseAdmin(caller, membership)) throw forbidden();

  let lessons: readonly LessonOrderRow[] | undefined;
  for (let round = 0; ; round++) {
    const pointer = round === 0 ? first.pointer : await findSubmissionById(submissionId);
    if (!pointer || pointer.course_id !== courseId) throw quizNotFound();
    const [target, courseLessons] = await Promise.all([
      findGradingTarget(pointer),
      lessons ?? findCourseLessons(courseId),
    ]);
    lessons = courseLessons;
    const { before, answers, quiz } = target;
    if (!before || !answers || !quiz) throw quizNotFound();
    checkVerdicts(quiz, answers, input.answers ?? {});

    const graded = regrade(quiz, answers.grades, input.answers ?? {}, {
      score: input.score,
      passed: input.passed,
    });
    const after: QuizSubmission = {
      ...before,
      score: graded.score,
      points_earned: Object.values(graded.grades).reduce((sum, grade) => sum + grade.points_earned, 0),
      correct_answers: graded.correct_answers,
      passed: graded.passed,
      status: 'graded',
      graded_at: nowIso(),
      graded_by: caller.id,
      revision: before.revision + 1,
    };
    const gradedAnswers: QuizAnswers = {
      ...answers,
      grades: graded.grades,
      feedback: input.feedback ?? answers.feedback,
    };
    const completion = after.passed
      ? planLessonCompletion(target.membership, target.progress, after.lesson_id, lessons)
      : undefined;
    const outcome = await writeGrading(before, after, gradedAnswers, completion);
    if (outcome !== 'written') continue; // a concurrent grading or completion came first: re-read and re-apply

    if (completion) {
      const lesson = lessons.find((row) => row.lesson_id === after.lesson_id);
      await announceLessonCompletion({
        userId: after.user_id,
        courseId,
        lessonId: after.lesson_id,
        lessonTitle: lesson?.title ?? '',
      });
    }
    return {
      message: 'Quiz result updated successfully',
      quiz_result: {
        id: after.id,
        score: after.score,
        passed: after.passed,
        feedback: feedbackOf(after, gradedAnswers),
        status: after.status,
        graded_at: toSqlDateTime(after.graded_at as string),
        graded_by: { id: caller.id, display_name: grader?.display_name ?? caller.username },
      },
    };
  }
}

/** Each verdict must name a question the attempt answered, with 0..points of that question. */
function checkVerdicts(
  quiz: QuizItem,
  answers: QuizAnswers,
  verdicts: Readonly<Record<string, GraderVerdict>>,
) {
  const problems: Record<string, string> = {};
  for (const [questionId, verdict] of Object.entries(verdicts)) {
    const question = quiz.questions.find((candidate) => candidate.id === questionId);
    if (!question) problems[`answers.${questionId}`] = 'is not a question of this quiz';
    else if (answers.answers[questionId] === undefined) {
      problems[`answers.${questionId}`] = 'was not answered in this attempt';
    } else if (verdict.points_earned > question.points) {
      problems[`answers.${questionId}.points_earned`] = `must be between 0 and ${question.points}`;
    }
  }
  if (Object.keys(problems).length > 0) throw invalidParams(problems);
}
