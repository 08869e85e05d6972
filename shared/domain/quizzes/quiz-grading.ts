import type { QuizItem, QuizQuestion } from '../courses/index.ts';
import type { QuizSubmissionStatus } from '../../vocabulary/courses.ts';

/**
 * Grading (decisions.md "Quizzes"), as pure functions of the quiz and the answers:
 *
 * - `multiple_choice` and `true_false` are right when the answer is the correct option;
 * - `multiple_select` is right only when the set of answers equals the set of correct options (no partial credit);
 * - `short_answer` with `accepted_answers` is right when the answer matches one exactly after normalising both
 *   (trimmed, case-insensitive, inner whitespace collapsed); without them it waits for a grader;
 * - score = round(100 × points earned ÷ points of all questions); `passed` = score ≥ `passing_score`;
 * - status `completed` when everything was auto-graded, `in_progress` while any answer waits for a grader.
 *
 * Answers reach these functions already validated (quiz-answers.ts), keyed by question id, unanswered questions
 * absent.
 */
export type AnswerValue = string | string[];

/** One question's grade; `pending` while a written answer waits for a grader (then not correct, no points). */
export interface QuestionGrade {
  readonly is_correct: boolean;
  readonly points_earned: number;
  readonly pending: boolean;
}

export interface SubmissionGrade {
  /** By question id, answered questions only. */
  readonly grades: Record<string, QuestionGrade>;
  readonly points_earned: number;
  readonly points_possible: number;
  readonly score: number;
  readonly correct_answers: number;
  readonly total_questions: number;
  readonly passed: boolean;
  readonly status: Exclude<QuizSubmissionStatus, 'graded'>;
}

/** Exact-match normal form: trimmed, lower case, every run of whitespace one space. */
export const normalizeWrittenAnswer = (text: string): string =>
  text.trim().replace(/\s+/gu, ' ').toLowerCase();

/** Whether a short answer is graded by exact match (else by a person). */
export const isExactMatch = (question: QuizQuestion): boolean =>
  question.type === 'short_answer' && question.accepted_answers.length > 0;

const correctOptionIds = (question: QuizQuestion): string[] =>
  question.options.filter((option) => option.is_correct).map((option) => option.id);

/** The grade of one answered question. */
export function gradeAnswer(question: QuizQuestion, answer: AnswerValue): QuestionGrade {
  const right = (isCorrect: boolean): QuestionGrade => ({
    is_correct: isCorrect,
    points_earned: isCorrect ? question.points : 0,
    pending: false,
  });
  switch (question.type) {
    case 'multiple_choice':
    case 'true_false':
      return right(typeof answer === 'string' && correctOptionIds(question).includes(answer));
    case 'multiple_select': {
      const chosen = new Set(typeof answer === 'string' ? [answer] : answer);
      const correct = new Set(correctOptionIds(question));
      return right(chosen.size === correct.size && [...chosen].every((id) => correct.has(id)));
    }
    case 'short_answer': {
      if (!isExactMatch(question)) return { is_correct: false, points_earned: 0, pending: true };
      const given = normalizeWrittenAnswer(typeof answer === 'string' ? answer : answer.join(' '));
      return right(question.accepted_answers.some((accepted) => normalizeWrittenAnswer(accepted) === given));
    }
  }
}

/** Points-weighted percentage; a quiz whose questions are all worth 0 points scores 0. */
export const scoreOf = (pointsEarned: number, pointsPossible: number): number =>
  pointsPossible <= 0 ? 0 : Math.round((100 * pointsEarned) / pointsPossible);

export const pointsPossible = (quiz: QuizItem): number =>
  quiz.questions.reduce((sum, question) => sum + question.points, 0);

/** Grades a whole submission; `answers` holds the answered questions by id. */
export function gradeSubmission(
  quiz: QuizItem,
  answers: Readonly<Record<string, AnswerValue>>,
): SubmissionGrade {
  const grades: Record<string, QuestionGrade> = {};
  for (const question of quiz.questions) {
    const answer = answers[question.id];
    if (answer !== undefined) grades[question.id] = gradeAnswer(question, answer);
  }
  return summarize(quiz, grades);
}

/** Totals of a set of grades; the status follows the grades (the grader's path sets `graded` itself). */
export function summarize(quiz: QuizItem, grades: Readonly<Record<string, QuestionGrade>>): SubmissionGrade {
  const values = Object.values(grades);
  const earned = values.reduce((sum, grade) => sum + grade.points_earned, 0);
  const possible = pointsPossible(quiz);
  const score = scoreOf(earned, possible);
  return {
    grades: { ...grades },
    points_earned: earned,
    points_possible: possible,
    score,
    correct_answers: values.filter((grade) => grade.is_correct).length,
    total_questions: quiz.questions.length,
    passed: score >= quiz.passing_score,
    status: values.some((grade) => grade.pending) ? 'in_progress' : 'completed',
  };
}

/** A grader's verdict on one answer (`answers` of the admin update). */
export interface GraderVerdict {
  readonly is_correct: boolean;
  readonly points_earned: number;
}

export interface Regrade {
  readonly grades: Record<string, QuestionGrade>;
  readonly score: number;
  readonly correct_answers: number;
  readonly passed: boolean;
}

/**
 * Manual grading (decisions.md): the verdicts replace the grades of the answers they name (no longer pending); the
 * score is recomputed from all grades unless `score` is given; `passed` follows the score unless given.
 */
export function regrade(
  quiz: QuizItem,
  current: Readonly<Record<string, QuestionGrade>>,
  verdicts: Readonly<Record<string, GraderVerdict>>,
  overrides: { readonly score?: number | undefined; readonly passed?: boolean | undefined },
): Regrade {
  const grades: Record<string, QuestionGrade> = { ...current };
  for (const [questionId, verdict] of Object.entries(verdicts)) {
    grades[questionId] = {
      is_correct: verdict.is_correct,
      points_earned: verdict.points_earned,
      pending: false,
    };
  }
  const totals = summarize(quiz, grades);
  const score = overrides.score ?? totals.score;
  return {
    grades,
    score,
    correct_answers: totals.correct_answers,
    passed: overrides.passed ?? score >= quiz.passing_score,
  };
}
