import { invalidParams } from '../../errors/app-error.ts';
import {
  EXACT_MATCH_ANSWER_MAX_LENGTH,
  QUIZ_ANSWERS_MAX_BYTES,
  TIME_LIMIT_GRACE_SECONDS,
  WRITTEN_ANSWER_MAX_LENGTH,
} from '../../vocabulary/courses.ts';
import type { QuizItem, QuizQuestion } from '../courses/index.ts';
import { invalidAnswers } from './quiz-errors.ts';
import { type AnswerValue, isExactMatch } from './quiz-grading.ts';

/**
 * How the client named the questions: by `id` (answered with `quiz_result`) or by `slug` (clients of the original
 * plugin, answered with `result`). A key that is both an id and a slug is an id (the import forbids a slug that
 * is another question's id, so such a key always names one question).
 */
export type KeyStyle = 'id' | 'slug';

export interface CheckedAnswers {
  readonly keyStyle: KeyStyle;
  /** Answered questions by question id, as sent (a lone string for `multiple_select` becomes a one-item list). */
  readonly answers: Record<string, AnswerValue>;
}

/**
 * Validates a submission against its quiz (decisions.md "Quizzes"), in this order:
 * 1. an empty `answers` object: 400 `invalid_answers`;
 * 2. keys: each must name a question of the quiz, all by id or all by slug; else 400 `rest_invalid_param`;
 * 3. values: an answer naming no option of its question, a list for a single-answer question, a written answer
 *    over its cap (500 characters for exact-match grading, 10 000 otherwise), answers over 256 KB in total, or
 *    `time_spent` above `time_limit` + 60 s: 400 `rest_invalid_param` naming each field;
 * 4. required questions left unanswered (an empty string or list counts as unanswered): 400 `invalid_answers`
 *    listing their ids.
 */
export function checkAnswers(
  quiz: QuizItem,
  raw: Readonly<Record<string, AnswerValue>>,
  timeSpent: number,
): CheckedAnswers {
  const keys = Object.keys(raw);
  if (keys.length === 0) throw invalidAnswers([]);

  const byId = new Map(quiz.questions.map((question) => [question.id, question]));
  const bySlug = new Map(quiz.questions.map((question) => [question.slug, question]));
  const unknown = keys.filter((key) => !byId.has(key) && !bySlug.has(key));
  if (unknown.length > 0) {
    throw invalidParams(
      Object.fromEntries(unknown.map((key) => [`answers.${key}`, 'is not a question of this quiz'])),
    );
  }
  const keyStyle: KeyStyle | undefined = keys.every((key) => byId.has(key))
    ? 'id'
    : keys.every((key) => bySlug.has(key))
      ? 'slug'
      : undefined;
  if (keyStyle === undefined) {
    throw invalidParams({ answers: 'keys must be all question ids or all question slugs, not a mix' });
  }

  const problems: Record<string, string> = {};
  const answers: Record<string, AnswerValue> = {};
  for (const key of keys) {
    const question = (keyStyle === 'id' ? byId : bySlug).get(key) as QuizQuestion;
    const value = raw[key] as AnswerValue;
    const problem = answerProblem(question, value);
    if (problem) problems[`answers.${key}`] = problem;
    else if (!isUnanswered(value)) {
      answers[question.id] =
        question.type === 'multiple_select'
          ? [...new Set(typeof value === 'string' ? [value] : value)]
          : value;
    }
  }
  if (Buffer.byteLength(JSON.stringify(raw), 'utf8') > QUIZ_ANSWERS_MAX_BYTES) {
    problems.answers = `are too large: at most ${QUIZ_ANSWERS_MAX_BYTES / 1024} KB in total`;
  }
  if (quiz.time_limit > 0 && timeSpent > quiz.time_limit + TIME_LIMIT_GRACE_SECONDS) {
    problems.time_spent = `exceeds the quiz's time limit of ${quiz.time_limit} seconds`;
  }
  if (Object.keys(problems).length > 0) throw invalidParams(problems);

  const missing = quiz.questions
    .filter((question) => question.required && answers[question.id] === undefined)
    .map((question) => question.id);
  if (missing.length > 0) throw invalidAnswers(missing);
  return { keyStyle, answers };
}

const isUnanswered = (value: AnswerValue): boolean =>
  typeof value === 'string' ? value.trim() === '' : value.length === 0;

/** Characters as a reader counts them (code points, so an emoji is one). */
const characters = (text: string): number => [...text].length;

function answerProblem(question: QuizQuestion, value: AnswerValue): string | undefined {
  if (isUnanswered(value)) return undefined;
  const optionIds = new Set(question.options.map((option) => option.id));
  switch (question.type) {
    case 'multiple_choice':
    case 'true_false':
      if (typeof value !== 'string') return 'must be one option id (a string)';
      return optionIds.has(value) ? undefined : 'names no option of this question';
    case 'multiple_select': {
      const chosen = typeof value === 'string' ? [value] : value;
      return chosen.every((id) => optionIds.has(id)) ? undefined : 'names no option of this question';
    }
    case 'short_answer': {
      if (typeof value !== 'string') return 'must be a written answer (a string)';
      const cap = isExactMatch(question) ? EXACT_MATCH_ANSWER_MAX_LENGTH : WRITTEN_ANSWER_MAX_LENGTH;
      return characters(value) > cap ? `must be at most ${cap} characters` : undefined;
    }
  }
}
