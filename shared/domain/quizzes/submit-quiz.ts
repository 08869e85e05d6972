import { withFreshId } from '../../db/ids.ts';
import type { Caller } from '../auth/index.ts';
import {
  announceLessonCompletion,
  type CourseProgress,
  checkEarlierLessons,
  findStudentProgress,
  planLessonCompletion,
  recordsCourseProgress,
} from '../courses/index.ts';
import { nowIso } from '../dates.ts';
import type { MembershipItem } from '../spaces/index.ts';
import { type AnswerValue, gradeSubmission } from './quiz-grading.ts';
import { checkAnswers } from './quiz-answers.ts';
import { alreadySubmitted, maxAttemptsReached } from './quiz-errors.ts';
import { loadQuizLessonForSubmission, nextLessonUnlocked } from './load-quiz-lesson.ts';
import { toSubmitResultById, toSubmitResultBySlug } from './quiz-mapper.ts';
import type { QuizAnswers, QuizSubmission } from './quiz-submission-item.ts';
import { findLatestAttempt, insertSubmission } from './quiz-submission-repository.ts';

/** The submit body as the contract delivers it (`time_spent` defaults to 0 there). */
export interface SubmitQuizInput {
  readonly answers: Readonly<Record<string, AnswerValue>>;
  readonly time_spent: number;
}

/**
 * Submits an attempt (contract "Submit", decisions.md "Quizzes"): checks course, lesson, quiz, enrolment and
 * answers, grades, and stores the attempt as the student's next numbered attempt; all attempts are kept.
 *
 * Attempt limits hold under any concurrency: the next number is read consistently and the attempt is stored with
 * a conditional Put of its slot, so of two submissions that read the same number one is refused by DynamoDB; the
 * loser re-reads and tries the following number, or is refused with `already_submitted` (retakes not allowed) or
 * `max_attempts_reached` once slots 1..max_attempts are taken.
 *
 * A pass records the lesson as completed in the same transaction (courses domain, once per lesson) and then
 * notifies the student with `lesson_complete`. A student's submission to a lesson that `sequential_lesson_order`
 * still locks is refused as the completion route refuses it (400 `lesson_locked`), before anything is stored; the
 * check is repeated against every membership a completion is planned from, so a concurrent "incomplete" of an
 * earlier lesson cannot slip under it.
 */
export async function submitQuiz(caller: Caller, courseId: number, lessonId: number, input: SubmitQuizInput) {
  // One round of three reads: the lesson's context with the student's profile (name for the by-name order) and
  // progress, and the latest attempt, so a submission past the limit is refused before anything is allocated.
  const [context, firstLatest] = await Promise.all([
    loadQuizLessonForSubmission(caller, courseId, lessonId),
    findLatestAttempt(courseId, caller.id, lessonId),
  ]);
  const { quiz, student } = context;
  const checkUnlocked = (membership: MembershipItem | undefined, progress: CourseProgress) => {
    if (context.course.settings.sequential_lesson_order === 'yes' && recordsCourseProgress(membership))
      checkEarlierLessons(context.lessons, context.lesson, progress.completed);
  };
  checkUnlocked(context.membership, context.progress);
  const checked = checkAnswers(quiz, input.answers, input.time_spent);
  const grade = gradeSubmission(quiz, checked.answers);
  const nextAttempt = (latest: QuizSubmission | undefined): number => {
    const attemptNumber = (latest?.attempt_number ?? 0) + 1;
    if (attemptNumber > 1 && !quiz.allow_retake) throw alreadySubmitted();
    if (quiz.max_attempts > 0 && attemptNumber > quiz.max_attempts)
      throw maxAttemptsReached(quiz.max_attempts);
    return attemptNumber;
  };
  const firstAttempt = nextAttempt(firstLatest);
  let membership = context.membership;
  let progress = context.progress;
  // A drawn submission id that is already taken (the id pointer's guard) draws another; a taken attempt slot or
  // a changed membership is answered inside, as before.
  return withFreshId(async (submissionId) => {
    let attemptNumber = firstAttempt;
    const answers: QuizAnswers = {
      submission_id: submissionId,
      key_style: checked.keyStyle,
      answers: checked.answers,
      grades: grade.grades,
      feedback: null,
    };
    for (let round = 0; ; round++) {
      if (round > 0) attemptNumber = nextAttempt(await findLatestAttempt(courseId, caller.id, lessonId));
      const row: QuizSubmission = {
        id: submissionId,
        user_id: caller.id,
        course_id: courseId,
        lesson_id: lessonId,
        attempt_number: attemptNumber,
        score: grade.score,
        points_earned: grade.points_earned,
        points_possible: grade.points_possible,
        total_questions: grade.total_questions,
        correct_answers: grade.correct_answers,
        passed: grade.passed,
        passing_score: quiz.passing_score,
        time_spent: input.time_spent,
        status: grade.status,
        submitted_at: nowIso(),
        graded_at: null,
        graded_by: null,
        sort_name: student?.display_name ?? caller.username,
        revision: 0,
      };
      const completion = grade.passed
        ? planLessonCompletion(membership, progress, lessonId, context.lessons)
        : undefined;
      const outcome = await insertSubmission(row, answers, completion);
      if (outcome === 'completion_changed') {
        ({ membership, progress } = await findStudentProgress(courseId, caller.id));
        checkUnlocked(membership, progress);
        continue;
      }
      if (outcome !== 'written') continue; // the slot was taken meanwhile: re-read the latest attempt

      if (completion) {
        await announceLessonCompletion({
          userId: caller.id,
          courseId,
          lessonId,
          lessonTitle: context.lesson.title,
        });
      }
      return checked.keyStyle === 'slug'
        ? toSubmitResultBySlug(quiz, row, answers)
        : toSubmitResultById(quiz, row, answers, nextLessonUnlocked(context, row.passed));
    }
  });
}
