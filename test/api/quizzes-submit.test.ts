import { beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { api } from '../support/api.ts';
import {
  expectBareError,
  importQuizCourse,
  type QuizCourse,
  result,
  submit,
} from '../support/quiz-course.ts';

/** POST /courses/{course_id}/lessons/{lesson_id}/quiz/submit through the local gateway. */

const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const RIGHT = {
  q_choice: 'four',
  q_select: ['three', 'two'],
  q_bool: 'false',
  q_exact: '  typescript    COMPILER ',
  q_essay: 'Generics parameterise types.',
};

let course: QuizCourse;
let sequential: QuizCourse;
beforeAll(async () => {
  [course, sequential] = await Promise.all([importQuizCourse(), importQuizCourse({ sequential: true })]);
});

describe('grading through the gateway', () => {
  it('grades right answers, waits for a grader on the written one, and answers quiz_result (201)', async () => {
    const response = await submit(course.student, course.courseId, course.lessons.quiz, {
      answers: RIGHT,
      time_spent: 95,
    });
    expect(response.status, response.text).toBe(201);
    const { quiz_result: quiz, detailed_results: details, message } = response.body;
    expect(message).toBe('Quiz has been submitted successfully');
    // 2 + 3 + 1 + 4 of 15 points (the essay waits for a grader): round(66.67) = 67 ≥ 60.
    expect(quiz).toEqual({
      id: expect.any(Number),
      score: 67,
      total_questions: 5,
      correct_answers: 4,
      passed: true,
      passing_score: 60,
      attempt_number: 1,
      feedback: expect.stringContaining('waiting to be graded'),
      can_retake: true,
      next_lesson_unlocked: true,
      submitted_at: expect.stringMatching(SQL_TIME),
    });
    expect(details).toEqual([
      {
        question_id: 'q_choice',
        question: '2 + 2?',
        your_answer: 'four',
        correct_answer: 'four',
        is_correct: true,
        points_earned: 2,
        points_possible: 2,
        explanation: 'Arithmetic.',
      },
      expect.objectContaining({
        question_id: 'q_select',
        your_answer: ['three', 'two'],
        correct_answer: ['two', 'three'],
        is_correct: true,
        points_earned: 3,
      }),
      expect.objectContaining({ question_id: 'q_bool', is_correct: true, points_earned: 1 }),
      expect.objectContaining({
        question_id: 'q_exact',
        your_answer: '  typescript    COMPILER ',
        correct_answer: 'TypeScript Compiler',
        is_correct: true,
        points_earned: 4,
      }),
      expect.objectContaining({
        question_id: 'q_essay',
        correct_answer: null,
        is_correct: false,
        points_earned: 0,
        points_possible: 5,
      }),
    ]);
    const stored = await result(course.student, course.courseId, course.lessons.quiz);
    expect(stored.body.quiz_result).toMatchObject({ status: 'in_progress', time_spent: 95, score: 67 });
  });

  it('grades wrong, partially right (multiple_select: wrong) and unanswered questions', async () => {
    const response = await submit(sequential.student2, sequential.courseId, sequential.lessons.quiz, {
      answers: { q_choice: 'five', q_select: ['two'], q_exact: 'javac', q_bool: '' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.quiz_result).toMatchObject({
      score: 0,
      correct_answers: 0,
      passed: false,
      next_lesson_unlocked: false, // sequential course: the next lesson waits for a pass
      feedback: 'You scored 0%; the passing score is 60%.',
    });
    // Unanswered questions (q_bool empty, q_essay absent) are left out.
    expect(response.body.detailed_results.map((d: { question_id: string }) => d.question_id)).toEqual([
      'q_choice',
      'q_select',
      'q_exact',
    ]);
    expect(response.body.detailed_results[1]).toMatchObject({ is_correct: false, points_earned: 0 });
    const stored = await result(sequential.student2, sequential.courseId, sequential.lessons.quiz);
    expect(stored.body.quiz_result).toMatchObject({ status: 'completed', time_spent: 0 });
  });

  it('weights the score by points and passes at exactly the passing score', async () => {
    // choice (2) + bool (1) + exact (4) + select wrong = 7 of 15 = 47: failed
    const failed = await submit(course.courseAdmin, course.courseId, course.lessons.quiz, {
      answers: { q_choice: 'four', q_bool: 'false', q_exact: 'TSC', q_select: 'two' },
    });
    expect(failed.body.quiz_result).toMatchObject({ score: 47, passed: false, correct_answers: 3 });
    // select (3) + exact (4) + choice (2) = 9 of 15 = 60: passed
    const passed = await submit(course.courseAdmin, course.courseId, course.lessons.quiz, {
      answers: { q_select: ['two', 'three'], q_exact: 'tsc', q_choice: 'four' },
    });
    expect(passed.body.quiz_result).toMatchObject({ score: 60, passed: true, attempt_number: 2 });
  });

  it('answers slug keys with the second result shape', async () => {
    const response = await submit(course.student2, course.courseId, course.lessons.quiz, {
      answers: { single_choice_1: 'four', multiple_choice_1: ['two'], short_answer_1: 'tsc' },
      time_spent: 12,
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      message: 'Quiz has been submitted successfully',
      result: {
        content_type: 'quiz',
        id: expect.any(Number),
        message: {
          single_choice_1: { is_correct: true, user_answer: 'four' },
          multiple_choice_1: { is_correct: false, user_answer: ['two'] },
          short_answer_1: { is_correct: true, user_answer: 'tsc' },
        },
        meta: { attempts: 1, correct_answers: 2, total_questions: 5 },
        parent_id: course.courseId,
        post_id: course.lessons.quiz,
        score: '40',
        status: 'completed',
        type: 'quiz',
        updated_at: expect.stringMatching(SQL_TIME),
        user_id: course.student2.id,
      },
    });
  });

  it('caps written answers: 500 characters for exact match, 10 000 for manual grading', async () => {
    const user = course.student2;
    const overExact = await submit(user, course.courseId, course.lessons.quiz, {
      answers: { q_exact: 'a'.repeat(501) },
    });
    expectBareError(overExact, 400, 'rest_invalid_param');
    expect(overExact.body.message).toContain('answers.q_exact');
    const overEssay = await submit(user, course.courseId, course.lessons.quiz, {
      answers: { q_essay: 'b'.repeat(10_001) },
    });
    expectBareError(overEssay, 400, 'rest_invalid_param');
    const fullEssay = await submit(user, course.courseId, course.lessons.quiz, {
      answers: { q_essay: 'b'.repeat(10_000), q_exact: 'c'.repeat(500) },
    });
    expect(fullEssay.status, fullEssay.text).toBe(201);
    expect(fullEssay.body.quiz_result).toMatchObject({ score: 0, correct_answers: 0 });
  });
});

describe('refusals, each with only code and message', () => {
  it('empty answers and unanswered required questions: 400 invalid_answers', async () => {
    const empty = await submit(course.student, course.courseId, course.lessons.quiz, { answers: {} });
    expectBareError(empty, 400, 'invalid_answers');
    expect(empty.body.message).toBe('No answers were given.');
  });

  it('an answer naming no option, a question the quiz lacks, or mixed keys: 400 rest_invalid_param', async () => {
    for (const answers of [
      { q_choice: 'six' },
      { q_select: ['two', 'nine'] },
      { q_bool: 'True' },
      { q_choice: ['four'] },
      { q_missing: 'four' },
      { q_choice: 'four', multiple_choice_1: ['two'] },
    ]) {
      const response = await submit(course.student, course.courseId, course.lessons.quiz, { answers });
      expectBareError(response, 400, 'rest_invalid_param');
    }
  });

  it('time_spent above time_limit + 60 s: 400 rest_invalid_param', async () => {
    const ok = await submit(course.student, course.courseId, course.lessons.timed, {
      answers: { q_choice: 'four' },
      time_spent: 180,
    });
    expect(ok.status, ok.text).toBe(201);
    const over = await submit(course.student, course.courseId, course.lessons.timed, {
      answers: { q_choice: 'four' },
      time_spent: 181,
    });
    expectBareError(over, 400, 'rest_invalid_param');
    expect(over.body.message).toContain('time_spent');
  });

  it('validation errors on quiz routes are bare too', async () => {
    const path = `/courses/${course.courseId}/lessons/${course.lessons.quiz}/quiz/submit`;
    expectBareError(
      await api('POST', path, { as: course.student, body: {} }),
      400,
      'rest_missing_callback_param',
    );
    expectBareError(
      await api('POST', path, { as: course.student, body: { answers: { q_choice: 'four' }, extra: 1 } }),
      400,
      'rest_invalid_param',
    );
    expectBareError(
      await api('POST', path, {
        as: course.student,
        body: { answers: { q_choice: 'four' }, time_spent: -1 },
      }),
      400,
      'rest_invalid_param',
    );
    expectBareError(
      await api('POST', path, { as: course.student, body: { answers: { q_choice: 4 } } }),
      400,
      'rest_invalid_param',
    );
    expectBareError(
      await api('POST', path, {
        as: course.student,
        rawBody: '{"answers":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'rest_invalid_json',
    );
    expectBareError(
      await api('POST', '/courses/abc/lessons/1/quiz/submit', { as: course.student, body: { answers: {} } }),
      400,
      'rest_invalid_param',
    );
  });

  it('anonymous: 401 rest_not_logged_in, bare', async () => {
    expectBareError(
      await submit(undefined, course.courseId, course.lessons.quiz, { answers: RIGHT }),
      401,
      'rest_not_logged_in',
    );
  });

  it('a caller not enrolled: 403 course_not_enrolled', async () => {
    expectBareError(
      await submit(course.outsider, course.courseId, course.lessons.quiz, { answers: RIGHT }),
      403,
      'course_not_enrolled',
    );
  });

  it('an unpublished lesson: 403 lesson_not_published', async () => {
    expectBareError(
      await submit(course.student, course.courseId, course.lessons.draft, { answers: { q_choice: 'four' } }),
      403,
      'lesson_not_published',
    );
  });

  it('no such course, no such lesson in it, or no quiz: 404 quiz_not_found', async () => {
    const other = await importQuizCourse();
    const cases: Array<[number, number]> = [
      [course.courseId, course.lessons.noQuiz],
      [999_999_999, course.lessons.quiz],
      [course.courseId, 999_999_999],
      [course.courseId, other.lessons.quiz],
      [other.courseId, course.lessons.quiz],
    ];
    for (const [courseId, lessonId] of cases) {
      expectBareError(
        await submit(course.student, courseId, lessonId, { answers: RIGHT }),
        404,
        'quiz_not_found',
      );
    }
  });

  it('a space that is not a course: 404 quiz_not_found', async () => {
    const tag = Date.now().toString(36);
    const { spaces } = await runImport({
      spaces: [
        {
          ref: 's',
          title: 'Plain space',
          slug: `plain-space-${tag}`,
          members: [{ user: course.student.username }],
        },
      ],
    });
    expectBareError(
      await submit(course.student, spaces.s as number, course.lessons.quiz, { answers: RIGHT }),
      404,
      'quiz_not_found',
    );
  });
});

describe('attempts', () => {
  it('numbers every submission and keeps them all', async () => {
    const own = await importQuizCourse();
    const numbers: number[] = [];
    for (const answer of ['five', 'four', 'five']) {
      const response = await submit(own.student, own.courseId, own.lessons.last, {
        answers: { q_choice: answer },
      });
      numbers.push(response.body.quiz_result.attempt_number);
    }
    expect(numbers).toEqual([1, 2, 3]);
    for (const [attempt, passed] of [
      [1, false],
      [2, true],
      [3, false],
    ] as const) {
      const stored = await result(own.student, own.courseId, own.lessons.last, { attempt });
      expect(stored.body.quiz_result).toMatchObject({ attempt_number: attempt, passed });
    }
  });

  it('a second submission without retakes: 409 already_submitted', async () => {
    const first = await submit(course.student, course.courseId, course.lessons.once, {
      answers: { q_choice: 'five' },
    });
    expect(first.status).toBe(201);
    expect(first.body.quiz_result.can_retake).toBe(false);
    expectBareError(
      await submit(course.student, course.courseId, course.lessons.once, { answers: { q_choice: 'four' } }),
      409,
      'already_submitted',
    );
  });

  it('attempts used up: 403 max_attempts_reached', async () => {
    const retakes: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await submit(course.student2, course.courseId, course.lessons.limited, {
        answers: { q_choice: 'five' },
      });
      expect(response.status).toBe(201);
      retakes.push(response.body.quiz_result.can_retake);
    }
    expect(retakes).toEqual([true, true, false]);
    expectBareError(
      await submit(course.student2, course.courseId, course.lessons.limited, {
        answers: { q_choice: 'four' },
      }),
      403,
      'max_attempts_reached',
    );
  });

  it('course admins and community admins count as enrolled', async () => {
    for (const caller of [course.courseAdmin, course.communityAdmin]) {
      const response = await submit(caller, course.courseId, course.lessons.last, {
        answers: { q_choice: 'four' },
      });
      expect(response.status, response.text).toBe(201);
    }
  });

  it('next_lesson_unlocked: false after the last lesson; true on a fail when the course is not sequential', async () => {
    const last = await submit(course.student, course.courseId, course.lessons.last, {
      answers: { q_choice: 'four' },
    });
    expect(last.body.quiz_result).toMatchObject({ passed: true, next_lesson_unlocked: false });
    const open = await importQuizCourse({ sequential: false });
    const failed = await submit(open.student, open.courseId, open.lessons.quiz, {
      answers: { q_choice: 'five' },
    });
    expect(failed.body.quiz_result).toMatchObject({ passed: false, next_lesson_unlocked: true });
  });
});
