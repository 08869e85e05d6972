import type { QuizSubmissionStatus } from '../../vocabulary/courses.ts';
import type { QuizItem, QuizQuestion } from '../courses/index.ts';
import { toSqlDateTime, toSqlDateTimeOrNull } from '../dates.ts';
import type { AnswerValue, QuestionGrade } from './quiz-grading.ts';
import type { QuizAnswers, QuizSubmission } from './quiz-submission-item.ts';

/** Responses of the quiz routes, built from stored items only here. Times render as `YYYY-MM-DD HH:MM:SS`. */

export interface DetailedResult {
  question_id: string;
  question: string;
  your_answer: AnswerValue;
  /** Hidden (absent) when the quiz's `show_correct_answers` is false; null for manually graded questions. */
  correct_answer?: string | string[] | null;
  is_correct: boolean;
  points_earned: number;
  points_possible: number;
}

/** The right answer as a client shows it: the option id, the option ids, or the first accepted written answer. */
export function correctAnswerOf(question: QuizQuestion): string | string[] | null {
  const correct = question.options.filter((option) => option.is_correct).map((option) => option.id);
  switch (question.type) {
    case 'multiple_choice':
    case 'true_false':
      return correct[0] ?? null;
    case 'multiple_select':
      return correct;
    case 'short_answer':
      return question.accepted_answers[0] ?? null;
  }
}

/** Per-question results in the quiz's question order; unanswered questions are left out. */
export function toDetailedResults(
  quiz: QuizItem,
  answers: Readonly<Record<string, AnswerValue>>,
  grades: Readonly<Record<string, QuestionGrade>>,
): DetailedResult[] {
  return quiz.questions.flatMap((question) => {
    const answer = answers[question.id];
    const grade = grades[question.id];
    if (answer === undefined || grade === undefined) return [];
    return [
      {
        question_id: question.id,
        question: question.question,
        your_answer: answer,
        ...(quiz.show_correct_answers ? { correct_answer: correctAnswerOf(question) } : {}),
        is_correct: grade.is_correct,
        points_earned: grade.points_earned,
        points_possible: question.points,
      },
    ];
  });
}

/** The grader's feedback, or the automatic message for the attempt's state. */
export function feedbackOf(row: QuizSubmission, answers: Pick<QuizAnswers, 'feedback'> | undefined): string {
  if (answers?.feedback) return answers.feedback;
  if (row.status === 'in_progress') {
    return `Your answers were submitted. Some of them are waiting to be graded; your score so far is ${row.score}%.`;
  }
  return row.passed
    ? `Congratulations! You passed with a score of ${row.score}% (passing score ${row.passing_score}%).`
    : `You scored ${row.score}%; the passing score is ${row.passing_score}%.`;
}

/** `can_retake` = `allow_retake` and attempts remain (`max_attempts` 0 = unlimited). */
export const canRetake = (quiz: QuizItem, attemptsUsed: number): boolean =>
  quiz.allow_retake && (quiz.max_attempts === 0 || attemptsUsed < quiz.max_attempts);

/** A submission's outcome as both the submit and the result responses show it. */
const outcomeOf = (row: QuizSubmission) => ({
  score: row.score,
  total_questions: row.total_questions,
  correct_answers: row.correct_answers,
  passed: row.passed,
  passing_score: row.passing_score,
  attempt_number: row.attempt_number,
});

/** The submit response for answers keyed by question id: `quiz_result` with `detailed_results`. */
export function toSubmitResultById(
  quiz: QuizItem,
  row: QuizSubmission,
  answers: QuizAnswers,
  nextLessonUnlocked: boolean,
) {
  return {
    message: 'Quiz has been submitted successfully',
    quiz_result: {
      id: row.id,
      ...outcomeOf(row),
      feedback: feedbackOf(row, answers),
      can_retake: canRetake(quiz, row.attempt_number),
      next_lesson_unlocked: nextLessonUnlocked,
      submitted_at: toSqlDateTime(row.submitted_at),
    },
    // On submit each result also carries the question's explanation (result reads leave it out).
    detailed_results: toDetailedResults(quiz, answers.answers, answers.grades).map((result) => ({
      ...result,
      explanation: quiz.questions.find((question) => question.id === result.question_id)?.explanation ?? '',
    })),
  };
}

/**
 * The submit response for answers keyed by question slug (the original plugin's clients): `result`, the second
 * shape: `message` keyed by slug, `score` as a string, `parent_id` the course, `post_id` the lesson.
 */
export function toSubmitResultBySlug(quiz: QuizItem, row: QuizSubmission, answers: QuizAnswers) {
  const message: Record<string, { is_correct: boolean; user_answer: AnswerValue }> = {};
  for (const question of quiz.questions) {
    const answer = answers.answers[question.id];
    const grade = answers.grades[question.id];
    if (answer !== undefined && grade !== undefined) {
      message[question.slug] = { is_correct: grade.is_correct, user_answer: answer };
    }
  }
  return {
    message: 'Quiz has been submitted successfully',
    result: {
      content_type: 'quiz' as const,
      id: row.id,
      message,
      meta: {
        attempts: row.attempt_number,
        correct_answers: row.correct_answers,
        total_questions: row.total_questions,
      },
      parent_id: row.course_id,
      post_id: row.lesson_id,
      score: String(row.score),
      status: row.status,
      type: 'quiz' as const,
      updated_at: toSqlDateTime(row.graded_at ?? row.submitted_at),
      user_id: row.user_id,
    },
  };
}

/** The full Quiz submission without `answers` (GET …/quiz/result). */
export function toQuizSubmission(row: QuizSubmission, answers: QuizAnswers | undefined) {
  return {
    id: row.id,
    user_id: row.user_id,
    course_id: row.course_id,
    lesson_id: row.lesson_id,
    ...outcomeOf(row),
    time_spent: row.time_spent,
    status: row.status as QuizSubmissionStatus,
    submitted_at: toSqlDateTime(row.submitted_at),
    graded_at: toSqlDateTimeOrNull(row.graded_at),
    feedback: feedbackOf(row, answers),
  };
}

export const toQuizSettings = (quiz: QuizItem, attemptsUsed: number) => ({
  max_attempts: quiz.max_attempts,
  attempts_used: attemptsUsed,
  can_retake: canRetake(quiz, attemptsUsed),
  time_limit: quiz.time_limit,
  show_correct_answers: quiz.show_correct_answers,
  randomize_questions: quiz.randomize_questions,
});
