import * as v from 'valibot';
import { QUESTION_TYPES, QUIZ_MAX_QUESTIONS } from '../../vocabulary/courses.ts';
import { QUIZ_DEFAULTS } from './course-item.ts';

/**
 * The validation rules of a quiz as an author writes it (the import uses them; a future quiz editor can too).
 * Choice questions need options with unique ids and at least one correct option; single-answer types exactly
 * one; `true_false` options are `true` and `false` because answers name options by id and decisions.md sends a
 * true/false answer as `"true"`/`"false"`. `accepted_answers` belongs to short answers only (at most 500
 * characters each, the exact-match answer cap).
 */
const OptionSchema = v.strictObject({
  id: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
  text: v.pipe(v.string(), v.maxLength(1000)),
  is_correct: v.boolean(),
});

/** Question ids key answer objects; `__proto__` would name an object's prototype instead of a key. */
const questionId = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(100),
  v.check((id) => id !== '__proto__', 'is reserved'),
);

export const QuestionSchema = v.pipe(
  v.strictObject({
    id: questionId,
    slug: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1..100 of A-Z a-z 0-9 _ -'),
        v.check((slug) => slug !== '__proto__', 'is reserved'),
      ),
    ),
    type: v.picklist(QUESTION_TYPES),
    question: v.pipe(v.string(), v.minLength(1), v.maxLength(5000)),
    options: v.optional(v.array(OptionSchema)),
    points: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)), 1),
    required: v.optional(v.boolean(), false),
    explanation: v.optional(v.string(), ''),
    accepted_answers: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(500)))),
  }),
  v.check(
    (q) => q.type === 'short_answer' || (q.options?.length ?? 0) >= 2,
    'a choice question needs options',
  ),
  v.check(
    (q) => q.type !== 'short_answer' || q.options === undefined || q.options.length === 0,
    'a short answer has no options',
  ),
  v.check(
    (q) => new Set((q.options ?? []).map((o) => o.id)).size === (q.options ?? []).length,
    'option ids must be unique',
  ),
  v.check(
    (q) => q.type === 'short_answer' || (q.options ?? []).some((o) => o.is_correct),
    'at least one option must be correct',
  ),
  v.check(
    (q) =>
      (q.type !== 'multiple_choice' && q.type !== 'true_false') ||
      (q.options ?? []).filter((o) => o.is_correct).length === 1,
    'exactly one option must be correct',
  ),
  v.check(
    (q) =>
      q.type !== 'true_false' || [...(q.options ?? []).map((o) => o.id)].sort().join(',') === 'false,true',
    'true_false options must have the ids "true" and "false"',
  ),
  v.check(
    (q) => q.type === 'short_answer' || q.accepted_answers === undefined,
    'accepted_answers is for short answers only',
  ),
);

export const QuizSchema = v.pipe(
  v.strictObject({
    passing_score: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100)),
      QUIZ_DEFAULTS.passing_score,
    ),
    max_attempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), QUIZ_DEFAULTS.max_attempts),
    allow_retake: v.optional(v.boolean(), QUIZ_DEFAULTS.allow_retake),
    time_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), QUIZ_DEFAULTS.time_limit),
    show_correct_answers: v.optional(v.boolean(), QUIZ_DEFAULTS.show_correct_answers),
    randomize_questions: v.optional(v.boolean(), QUIZ_DEFAULTS.randomize_questions),
    questions: v.pipe(
      v.array(QuestionSchema),
      v.minLength(1, 'a quiz needs at least one question'),
      v.maxLength(QUIZ_MAX_QUESTIONS, `a quiz has at most ${QUIZ_MAX_QUESTIONS} questions`),
    ),
  }),
  v.check(
    (quiz) => new Set(quiz.questions.map((q) => q.id)).size === quiz.questions.length,
    'question ids must be unique',
  ),
  v.check(
    (quiz) => new Set(quiz.questions.map((q) => q.slug ?? q.id)).size === quiz.questions.length,
    'question slugs must be unique',
  ),
  // Submissions are keyed by ids or by slugs (decisions.md); a slug that is another question's id would make a key
  // name two questions.
  v.check(
    (quiz) =>
      quiz.questions.every(
        (q) => q.slug === undefined || !quiz.questions.some((other) => other !== q && other.id === q.slug),
      ),
    "a question's slug may not be another question's id",
  ),
);

export type QuizInput = v.InferOutput<typeof QuizSchema>;
