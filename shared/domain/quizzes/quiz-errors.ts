import { AppError, notFound } from '../../errors/app-error.ts';

/** The quiz codes of the contract and decisions.md ("Quizzes"); routes render them as bare `{ code, message }`. */
export const quizNotFound = () => notFound('quiz_not_found', 'Quiz not found.');

export const courseNotEnrolled = () =>
  new AppError('course_not_enrolled', 403, 'You need to enroll in this course to take this quiz.');

export const lessonNotPublished = () =>
  new AppError('lesson_not_published', 403, 'This lesson is not published yet.');

export const maxAttemptsReached = (maxAttempts: number) =>
  new AppError(
    'max_attempts_reached',
    403,
    `You have used all ${maxAttempts} allowed attempt${maxAttempts === 1 ? '' : 's'} of this quiz.`,
  );

export const alreadySubmitted = () =>
  new AppError('already_submitted', 409, 'You have already submitted this quiz and retakes are not allowed.');

/** An empty `answers` object, or required questions left unanswered: the message lists the question ids. */
export const invalidAnswers = (missingQuestionIds: readonly string[]) =>
  new AppError(
    'invalid_answers',
    400,
    missingQuestionIds.length === 0
      ? 'No answers were given.'
      : `Required questions are not answered: ${missingQuestionIds.join(', ')}`,
    { question_ids: [...missingQuestionIds] },
  );
