import { randomBytes } from 'node:crypto';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { type ApiResponse, api, createTestUser, type TestUser } from './api.ts';

/**
 * A course imported through the operator import (spec/operator-cli.md) for the quiz tests, with one question of
 * each type in the main quiz, and its people: two enrolled students, a course admin, a community admin and a
 * member who is not enrolled. Every call makes its own users and slugs, so test files run in parallel.
 */

/** The main quiz: 15 points in all (2 + 3 + 1 + 4 + 5). */
export const QUESTIONS = [
  {
    id: 'q_choice',
    slug: 'single_choice_1',
    type: 'multiple_choice',
    question: '2 + 2?',
    points: 2,
    explanation: 'Arithmetic.',
    options: [
      { id: 'four', text: '4', is_correct: true },
      { id: 'five', text: '5', is_correct: false },
    ],
  },
  {
    id: 'q_select',
    slug: 'multiple_choice_1',
    type: 'multiple_select',
    question: 'Which are primes?',
    points: 3,
    options: [
      { id: 'two', text: '2', is_correct: true },
      { id: 'three', text: '3', is_correct: true },
      { id: 'four', text: '4', is_correct: false },
    ],
  },
  {
    id: 'q_bool',
    slug: 'true_false_1',
    type: 'true_false',
    question: 'The sky is green.',
    points: 1,
    options: [
      { id: 'true', text: 'True', is_correct: false },
      { id: 'false', text: 'False', is_correct: true },
    ],
  },
  {
    id: 'q_exact',
    slug: 'short_answer_1',
    type: 'short_answer',
    question: 'Name the compiler.',
    points: 4,
    accepted_answers: ['TypeScript Compiler', 'tsc'],
  },
  {
    id: 'q_essay',
    slug: 'written_answer_1',
    type: 'short_answer',
    question: 'Explain generics.',
    points: 5,
  },
] as const;

const quizOf = (overrides: Record<string, unknown> = {}) => ({
  passing_score: 60,
  max_attempts: 0,
  allow_retake: true,
  time_limit: 0,
  show_correct_answers: true,
  randomize_questions: false,
  questions: QUESTIONS,
  ...overrides,
});
const simpleQuiz = (overrides: Record<string, unknown> = {}) =>
  quizOf({ questions: [QUESTIONS[0]], ...overrides });

export interface QuizCourse {
  readonly courseId: number;
  readonly lessons: {
    /** The main quiz (every type); in a sequential course the next lesson opens only on a pass. */
    readonly quiz: number;
    readonly next: number;
    readonly noQuiz: number;
    readonly draft: number;
    readonly once: number;
    readonly limited: number;
    readonly timed: number;
    readonly hidden: number;
    readonly last: number;
  };
  readonly student: TestUser;
  readonly student2: TestUser;
  readonly courseAdmin: TestUser;
  readonly communityAdmin: TestUser;
  readonly outsider: TestUser;
  /** Extra enrolled students, for races and lists. */
  readonly extraStudents: readonly TestUser[];
}

export async function importQuizCourse(
  options: { extraStudents?: number; sequential?: boolean } = {},
): Promise<QuizCourse> {
  const tag = randomBytes(4).toString('hex');
  const [student, student2, courseAdmin, communityAdmin, outsider, ...extraStudents] = await Promise.all([
    createTestUser({ displayName: `Student ${tag}` }),
    createTestUser({ displayName: `Another ${tag}` }),
    createTestUser({ displayName: `Course Admin ${tag}` }),
    createTestUser({ communityRole: 'admin', displayName: `Community Admin ${tag}` }),
    createTestUser({ displayName: `Outsider ${tag}` }),
    ...Array.from({ length: options.extraStudents ?? 0 }, (_, i) =>
      createTestUser({ displayName: `Extra ${i} ${tag}` }),
    ),
  ]);
  const lesson = (ref: string, extra: Record<string, unknown> = {}) => ({
    ref,
    title: `Lesson ${ref}`,
    slug: `lesson-${ref}-${tag}`,
    status: 'published',
    ...extra,
  });
  const output = await runImport({
    courses: [
      {
        ref: 'course',
        title: `Quiz course ${tag}`,
        slug: `quiz-course-${tag}`,
        // Not sequential unless asked: a sequential course locks every lesson after the first for its students.
        sequential_lesson_order: options.sequential ?? false,
        admins: [courseAdmin.username],
        students: [student, student2, ...extraStudents].map((user) => user.username),
        lessons: [
          lesson('quiz', { quiz: quizOf() }),
          lesson('next'),
          lesson('draft', { status: 'draft', quiz: simpleQuiz() }),
          lesson('once', { quiz: simpleQuiz({ allow_retake: false }) }),
          lesson('limited', { quiz: simpleQuiz({ max_attempts: 3 }) }),
          lesson('timed', { quiz: simpleQuiz({ time_limit: 120 }) }),
          lesson('hidden', { quiz: simpleQuiz({ show_correct_answers: false, passing_score: 100 }) }),
          lesson('last', { quiz: simpleQuiz() }),
        ],
      },
    ],
  });
  const course = output.courses.course;
  if (!course) throw new Error('import did not create the course');
  const id = (ref: string) => course.lessons[ref] as number;
  return {
    courseId: course.id,
    lessons: {
      quiz: id('quiz'),
      next: id('next'),
      noQuiz: id('next'),
      draft: id('draft'),
      once: id('once'),
      limited: id('limited'),
      timed: id('timed'),
      hidden: id('hidden'),
      last: id('last'),
    },
    student,
    student2,
    courseAdmin,
    communityAdmin,
    outsider,
    extraStudents,
  };
}

/** Response bodies, read loosely by the assertions (their shapes are the contracts' business). */
// biome-ignore lint/suspicious/noExplicitAny: tests walk JSON bodies field by field.
export type QuizBody = Record<string, any>;

export const submit = (
  as: TestUser | undefined,
  courseId: number,
  lessonId: number,
  body: unknown,
): Promise<ApiResponse<QuizBody>> =>
  api('POST', `/courses/${courseId}/lessons/${lessonId}/quiz/submit`, { ...(as ? { as } : {}), body });

export const result = (
  as: TestUser | undefined,
  courseId: number,
  lessonId: number,
  query: Record<string, string | number | boolean> = {},
): Promise<ApiResponse<QuizBody>> =>
  api('GET', `/courses/${courseId}/lessons/${lessonId}/quiz/result`, { ...(as ? { as } : {}), query });

export const adminList = (
  as: TestUser | undefined,
  courseId: number,
  query: Record<string, string | number | boolean> = {},
): Promise<ApiResponse<QuizBody>> =>
  api('GET', `/admin/courses/${courseId}/quiz-results`, { ...(as ? { as } : {}), query });

export const grade = (
  as: TestUser | undefined,
  courseId: number,
  submissionId: number | string,
  body: unknown,
): Promise<ApiResponse<QuizBody>> =>
  api('POST', `/admin/courses/${courseId}/quiz-results/${submissionId}`, { ...(as ? { as } : {}), body });

/** Quiz errors carry only `code` and `message`. */
export function expectBareError(response: ApiResponse<QuizBody>, status: number, code: string): void {
  if (
    response.status !== status ||
    response.body?.code !== code ||
    Object.keys(response.body).sort().join() !== 'code,message'
  ) {
    throw new Error(
      `expected ${status} ${code} with only code and message, got ${response.status} ${response.text}`,
    );
  }
}
