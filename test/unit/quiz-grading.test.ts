import { describe, expect, it } from 'vitest';
import { quizNameSort } from '../../shared/db/keys/courses.ts';
import { isAppError } from '../../shared/errors/app-error.ts';
import type { QuizItem, QuizQuestion } from '../../shared/domain/courses/course-item.ts';
import { checkAnswers } from '../../shared/domain/quizzes/quiz-answers.ts';
import {
  gradeAnswer,
  gradeSubmission,
  normalizeWrittenAnswer,
  regrade,
  scoreOf,
} from '../../shared/domain/quizzes/quiz-grading.ts';
import { correctAnswerOf, toDetailedResults } from '../../shared/domain/quizzes/quiz-mapper.ts';
import { statisticsFor } from '../../shared/domain/quizzes/quiz-statistics.ts';
import { EMPTY_QUIZ_STATS } from '../../shared/domain/quizzes/quiz-submission-item.ts';

/** Grading rules of decisions.md "Quizzes", exhaustively, as pure functions. */

const question = (overrides: Partial<QuizQuestion> & Pick<QuizQuestion, 'id' | 'type'>): QuizQuestion => ({
  slug: `${overrides.id}_slug`,
  question: `Question ${overrides.id}?`,
  options: [],
  points: 1,
  required: false,
  explanation: `Because ${overrides.id}.`,
  accepted_answers: [],
  ...overrides,
});

const choice = question({
  id: 'mc',
  type: 'multiple_choice',
  points: 2,
  options: [
    { id: 'a', text: '4', is_correct: true },
    { id: 'b', text: '5', is_correct: false },
  ],
});
const select = question({
  id: 'ms',
  type: 'multiple_select',
  points: 3,
  options: [
    { id: 'x', text: 'x', is_correct: true },
    { id: 'y', text: 'y', is_correct: true },
    { id: 'z', text: 'z', is_correct: false },
  ],
});
const trueFalse = question({
  id: 'tf',
  type: 'true_false',
  points: 1,
  options: [
    { id: 'true', text: 'True', is_correct: false },
    { id: 'false', text: 'False', is_correct: true },
  ],
});
const exact = question({
  id: 'sa',
  type: 'short_answer',
  points: 4,
  accepted_answers: ['Type Script', 'tsc'],
});
const manual = question({ id: 'essay', type: 'short_answer', points: 5 });

const quiz = (overrides: Partial<QuizItem> = {}): QuizItem => ({
  lesson_id: 10,
  course_id: 1,
  passing_score: 60,
  max_attempts: 3,
  allow_retake: true,
  time_limit: 0,
  show_correct_answers: true,
  randomize_questions: false,
  questions: [choice, select, trueFalse, exact, manual],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

function refusal(run: () => unknown): { code: string; message: string; params: unknown } {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message, params: error.data.params };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('gradeAnswer', () => {
  it('multiple_choice: right only with the correct option', () => {
    expect(gradeAnswer(choice, 'a')).toEqual({ is_correct: true, points_earned: 2, pending: false });
    expect(gradeAnswer(choice, 'b')).toEqual({ is_correct: false, points_earned: 0, pending: false });
  });

  it('true_false: right only with the correct option', () => {
    expect(gradeAnswer(trueFalse, 'false').is_correct).toBe(true);
    expect(gradeAnswer(trueFalse, 'true').is_correct).toBe(false);
  });

  it('multiple_select: right only with exactly the correct set, no partial credit', () => {
    expect(gradeAnswer(select, ['x', 'y'])).toEqual({ is_correct: true, points_earned: 3, pending: false });
    expect(gradeAnswer(select, ['y', 'x', 'x'])).toMatchObject({ is_correct: true, points_earned: 3 });
    expect(gradeAnswer(select, ['x'])).toEqual({ is_correct: false, points_earned: 0, pending: false });
    expect(gradeAnswer(select, ['x', 'y', 'z'])).toMatchObject({ is_correct: false, points_earned: 0 });
    expect(gradeAnswer(select, ['z'])).toMatchObject({ is_correct: false, points_earned: 0 });
    expect(gradeAnswer(select, 'x')).toMatchObject({ is_correct: false });
  });

  it('short_answer with accepted answers: exact match, trimmed, case-insensitive, inner whitespace collapsed', () => {
    for (const given of ['Type Script', '  type script ', 'TYPE\t\n  SCRIPT', 'tsc', ' TSC']) {
      expect(gradeAnswer(exact, given), given).toEqual({
        is_correct: true,
        points_earned: 4,
        pending: false,
      });
    }
    for (const given of ['TypeScript', 'type-script', 'tsc!', 'ts c']) {
      expect(gradeAnswer(exact, given), given).toEqual({
        is_correct: false,
        points_earned: 0,
        pending: false,
      });
    }
  });

  it('short_answer without accepted answers waits for a grader', () => {
    expect(gradeAnswer(manual, 'A long essay')).toEqual({
      is_correct: false,
      points_earned: 0,
      pending: true,
    });
  });

  it('normalizes written answers', () => {
    expect(normalizeWrittenAnswer('  Hello \t  World\n ')).toBe('hello world');
  });
});

describe('scores', () => {
  it('are round(100 × earned ÷ possible)', () => {
    expect(scoreOf(0, 15)).toBe(0);
    expect(scoreOf(15, 15)).toBe(100);
    expect(scoreOf(1, 3)).toBe(33);
    expect(scoreOf(2, 3)).toBe(67);
    expect(scoreOf(1, 8)).toBe(13); // 12.5 rounds half up
    expect(scoreOf(3, 0)).toBe(0);
  });

  it('weigh questions by points; unanswered questions earn nothing and are left out', () => {
    const grade = gradeSubmission(quiz(), { mc: 'a', ms: ['x'], sa: 'tsc' });
    // earned 2 (mc) + 0 (ms partial) + 4 (sa) of 2 + 3 + 1 + 4 + 5 = 15
    expect(grade).toMatchObject({
      points_earned: 6,
      points_possible: 15,
      score: 40,
      correct_answers: 2,
      total_questions: 5,
      passed: false,
      status: 'completed',
    });
    expect(Object.keys(grade.grades).sort()).toEqual(['mc', 'ms', 'sa']);
  });

  it('passed = score ≥ passing_score, equality passing', () => {
    const answers = { mc: 'a', ms: ['x', 'y'], tf: 'false', sa: 'tsc' }; // 10 of 15 = 67
    expect(gradeSubmission(quiz({ passing_score: 67 }), answers)).toMatchObject({ score: 67, passed: true });
    expect(gradeSubmission(quiz({ passing_score: 68 }), answers)).toMatchObject({ score: 67, passed: false });
  });

  it('an answer waiting for a grader makes the attempt in_progress', () => {
    expect(gradeSubmission(quiz(), { mc: 'a', essay: 'text' }).status).toBe('in_progress');
    expect(gradeSubmission(quiz(), { mc: 'a' }).status).toBe('completed');
  });
});

describe('checkAnswers', () => {
  it('an empty answers object is invalid_answers', () => {
    expect(refusal(() => checkAnswers(quiz(), {}, 0))).toMatchObject({
      code: 'invalid_answers',
      message: 'No answers were given.',
    });
  });

  it('required questions left unanswered are invalid_answers listing their ids', () => {
    const required = quiz({
      questions: [choice, { ...select, required: true }, { ...exact, required: true }],
    });
    expect(refusal(() => checkAnswers(required, { mc: 'a', ms: [] }, 0))).toMatchObject({
      code: 'invalid_answers',
      message: 'Required questions are not answered: ms, sa',
    });
    expect(checkAnswers(required, { ms: ['x'], sa: 'tsc' }, 0).answers).toEqual({ ms: ['x'], sa: 'tsc' });
  });

  it('a question the quiz lacks is rest_invalid_param', () => {
    expect(refusal(() => checkAnswers(quiz(), { mc: 'a', nope: 'x' }, 0))).toMatchObject({
      code: 'rest_invalid_param',
      params: { 'answers.nope': 'is not a question of this quiz' },
    });
  });

  it('an answer naming no option of its question is rest_invalid_param', () => {
    expect(refusal(() => checkAnswers(quiz(), { mc: 'c' }, 0))).toMatchObject({
      code: 'rest_invalid_param',
      params: { 'answers.mc': 'names no option of this question' },
    });
    expect(refusal(() => checkAnswers(quiz(), { ms: ['x', 'q'] }, 0)).params).toEqual({
      'answers.ms': 'names no option of this question',
    });
    expect(refusal(() => checkAnswers(quiz(), { tf: 'True' }, 0)).code).toBe('rest_invalid_param');
    expect(refusal(() => checkAnswers(quiz(), { mc: ['a'] }, 0)).params).toEqual({
      'answers.mc': 'must be one option id (a string)',
    });
    expect(refusal(() => checkAnswers(quiz(), { sa: ['tsc'] }, 0)).code).toBe('rest_invalid_param');
  });

  it('keys are all ids or all slugs; a mix is rest_invalid_param', () => {
    expect(checkAnswers(quiz(), { mc: 'a', ms: ['x'] }, 0).keyStyle).toBe('id');
    const bySlug = checkAnswers(quiz(), { mc_slug: 'a', ms_slug: 'x' }, 0);
    expect(bySlug).toEqual({ keyStyle: 'slug', answers: { mc: 'a', ms: ['x'] } });
    expect(refusal(() => checkAnswers(quiz(), { mc: 'a', ms_slug: ['x'] }, 0))).toMatchObject({
      code: 'rest_invalid_param',
      params: { answers: 'keys must be all question ids or all question slugs, not a mix' },
    });
  });

  it('a key that is both an id and a slug counts as an id', () => {
    const sameSlug = quiz({ questions: [{ ...choice, slug: 'mc' }, select] });
    expect(checkAnswers(sameSlug, { mc: 'a', ms: ['x'] }, 0).keyStyle).toBe('id');
    expect(checkAnswers(sameSlug, { mc: 'a', ms_slug: ['x'] }, 0).keyStyle).toBe('slug');
  });

  it('empty strings and lists are unanswered; a lone string selects one option', () => {
    expect(checkAnswers(quiz(), { mc: '  ', ms: 'x', essay: '' }, 0).answers).toEqual({ ms: ['x'] });
  });

  it('caps written answers: 500 characters for exact match, 10 000 for manual grading', () => {
    expect(checkAnswers(quiz(), { sa: 'a'.repeat(500) }, 0).answers.sa).toHaveLength(500);
    expect(refusal(() => checkAnswers(quiz(), { sa: 'a'.repeat(501) }, 0))).toMatchObject({
      code: 'rest_invalid_param',
      params: { 'answers.sa': 'must be at most 500 characters' },
    });
    expect(checkAnswers(quiz(), { essay: 'é'.repeat(10_000) }, 0).answers.essay).toHaveLength(10_000);
    // Characters, not UTF-16 units: 10 000 emoji are 10 000 characters.
    expect(checkAnswers(quiz(), { essay: '😀'.repeat(10_000) }, 0).answers.essay).toBeDefined();
    expect(refusal(() => checkAnswers(quiz(), { essay: 'a'.repeat(10_001) }, 0)).params).toEqual({
      'answers.essay': 'must be at most 10000 characters',
    });
  });

  it('caps the answers at 256 KB in total', () => {
    const many = quiz({
      questions: Array.from({ length: 30 }, (_, i) => question({ id: `e${i}`, type: 'short_answer' })),
    });
    const answers = Object.fromEntries(many.questions.map((q) => [q.id, '😀'.repeat(10_000)]));
    expect(refusal(() => checkAnswers(many, answers, 0)).params).toEqual({
      answers: 'are too large: at most 256 KB in total',
    });
  });

  it('refuses time_spent above time_limit + 60 s; time_limit 0 means none', () => {
    expect(checkAnswers(quiz({ time_limit: 0 }), { mc: 'a' }, 999_999).answers).toEqual({ mc: 'a' });
    expect(checkAnswers(quiz({ time_limit: 120 }), { mc: 'a' }, 180).answers).toEqual({ mc: 'a' });
    expect(refusal(() => checkAnswers(quiz({ time_limit: 120 }), { mc: 'a' }, 181))).toMatchObject({
      code: 'rest_invalid_param',
      params: { time_spent: "exceeds the quiz's time limit of 120 seconds" },
    });
  });
});

describe('manual grading', () => {
  const submitted = gradeSubmission(quiz(), { mc: 'a', essay: 'An essay' }); // 2 of 15 = 13, in progress

  it('verdicts replace grades and recompute the score; passed follows it', () => {
    const result = regrade(quiz(), submitted.grades, { essay: { is_correct: true, points_earned: 5 } }, {});
    expect(result).toEqual({
      grades: {
        mc: { is_correct: true, points_earned: 2, pending: false },
        essay: { is_correct: true, points_earned: 5, pending: false },
      },
      score: 47,
      correct_answers: 2,
      passed: false,
    });
    expect(
      regrade(
        quiz({ passing_score: 40 }),
        submitted.grades,
        { essay: { is_correct: true, points_earned: 5 } },
        {},
      ),
    ).toMatchObject({ score: 47, passed: true });
  });

  it('a given score wins over the recomputation; a given passed wins over the score', () => {
    expect(
      regrade(quiz(), submitted.grades, { essay: { is_correct: true, points_earned: 5 } }, { score: 90 }),
    ).toMatchObject({ score: 90, passed: true });
    expect(regrade(quiz(), submitted.grades, {}, { score: 90, passed: false })).toMatchObject({
      score: 90,
      passed: false,
    });
    expect(regrade(quiz(), submitted.grades, {}, { passed: true })).toMatchObject({
      score: 13,
      passed: true,
    });
  });
});

describe('responses', () => {
  it('correct answers: option id, option ids, first accepted answer, null for manual grading', () => {
    expect(correctAnswerOf(choice)).toBe('a');
    expect(correctAnswerOf(select)).toEqual(['x', 'y']);
    expect(correctAnswerOf(trueFalse)).toBe('false');
    expect(correctAnswerOf(exact)).toBe('Type Script');
    expect(correctAnswerOf(manual)).toBeNull();
  });

  it('detailed results list answered questions in quiz order and hide correct answers when asked', () => {
    const answers = { sa: 'TSC', mc: 'b' };
    const grades = gradeSubmission(quiz(), answers).grades;
    expect(toDetailedResults(quiz(), answers, grades)).toEqual([
      {
        question_id: 'mc',
        question: 'Question mc?',
        your_answer: 'b',
        correct_answer: 'a',
        is_correct: false,
        points_earned: 0,
        points_possible: 2,
      },
      {
        question_id: 'sa',
        question: 'Question sa?',
        your_answer: 'TSC',
        correct_answer: 'Type Script',
        is_correct: true,
        points_earned: 4,
        points_possible: 4,
      },
    ]);
    const hidden = toDetailedResults(quiz({ show_correct_answers: false }), answers, grades);
    expect(hidden.every((result) => !('correct_answer' in result))).toBe(true);
  });

  it('statistics restrict the counters to the result filter', () => {
    const stats = {
      ...EMPTY_QUIZ_STATS,
      total_submissions: 3,
      passed: 2,
      failed: 1,
      sum_score_passed: 170,
      sum_score_failed: 31,
      sum_time_passed: 100,
      sum_time_failed: 10,
    };
    expect(statisticsFor(stats, 'all')).toEqual({
      total_submissions: 3,
      passed: 2,
      failed: 1,
      average_score: 67,
      average_time: 36.67,
    });
    expect(statisticsFor(stats, 'passed')).toEqual({
      total_submissions: 2,
      passed: 2,
      failed: 0,
      average_score: 85,
      average_time: 50,
    });
    expect(statisticsFor(stats, 'failed')).toMatchObject({ total_submissions: 1, average_score: 31 });
    expect(statisticsFor(EMPTY_QUIZ_STATS, 'all')).toEqual({
      total_submissions: 0,
      passed: 0,
      failed: 0,
      average_score: 0,
      average_time: 0,
    });
  });
});

describe('the by-name order key', () => {
  const key = (name: string, userId = 1) => quizNameSort('P#', name, userId, '2026-01-01T00:00:00.000Z', 1);

  it('orders by folded name, prefixes first, then by user id', () => {
    const names = ['anna', 'Ann', 'ann-marie', 'Émile', 'bob', 'Zoë', 'ann marie'];
    const sorted = [...names].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    expect(sorted).toEqual(['Ann', 'ann marie', 'ann-marie', 'anna', 'bob', 'Émile', 'Zoë']);
    expect(key('Same', 2) < key('Same', 10)).toBe(true);
    expect(key('  Émile   Zola ')).toBe(key('emile zola'));
  });
});
