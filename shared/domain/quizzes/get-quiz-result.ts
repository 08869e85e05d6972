import type { Caller } from '../auth/index.ts';
import { findQuiz } from '../courses/index.ts';
import { quizNotFound } from './quiz-errors.ts';
import { toDetailedResults, toQuizSettings, toQuizSubmission } from './quiz-mapper.ts';
import { findAttempt, findAttemptAnswers, findLatestAttempt } from './quiz-submission-repository.ts';

export interface GetQuizResultInput {
  /** A positive attempt number or `latest` (the contract's default). */
  readonly attempt: number | 'latest';
  readonly include_answers: boolean;
}

/**
 * The caller's own result of one attempt (contract "Get result", decisions.md): `quiz_result` (the submission
 * without answers), `quiz_settings` with `attempts_used` and `can_retake`, and `detailed_results` (without
 * explanations) unless `include_answers` is false; `correct_answer` is left out when the quiz does not show correct
 * answers. No such course, lesson or quiz, or no such attempt of the caller: 404 `quiz_not_found`.
 *
 * Any authenticated caller may ask (contract access "Auth"); a caller only ever sees their own attempts, so a
 * former student keeps their results and someone who never submitted gets `quiz_not_found`.
 */
export async function getQuizResult(
  caller: Caller,
  courseId: number,
  lessonId: number,
  input: GetQuizResultInput,
) {
  const [quiz, latest] = await Promise.all([
    findQuiz(lessonId),
    findLatestAttempt(courseId, caller.id, lessonId),
  ]);
  if (!quiz || quiz.course_id !== courseId || !latest) throw quizNotFound();
  const wanted = input.attempt === 'latest' ? latest.attempt_number : input.attempt;
  if (wanted > latest.attempt_number) throw quizNotFound();
  const slot = { course_id: courseId, user_id: caller.id, lesson_id: lessonId, attempt_number: wanted };
  const [row, answers] = await Promise.all([
    wanted === latest.attempt_number ? latest : findAttempt(courseId, caller.id, lessonId, wanted),
    findAttemptAnswers(slot),
  ]);
  if (!row || !answers) throw quizNotFound();
  return {
    quiz_result: toQuizSubmission(row, answers),
    quiz_settings: toQuizSettings(quiz, latest.attempt_number),
    ...(input.include_answers
      ? { detailed_results: toDetailedResults(quiz, answers.answers, answers.grades) }
      : {}),
  };
}
