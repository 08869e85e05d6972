import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import {
  expectBareError,
  importQuizCourse,
  type QuizCourse,
  result,
  submit,
} from '../support/quiz-course.ts';

/** GET /courses/{course_id}/lessons/{lesson_id}/quiz/result through the local gateway. */

const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

let course: QuizCourse;
let firstId: number;
beforeAll(async () => {
  course = await importQuizCourse();
  const first = await submit(course.student, course.courseId, course.lessons.quiz, {
    answers: { q_choice: 'five', q_select: ['two', 'three'], q_essay: 'An essay.' },
    time_spent: 40,
  });
  firstId = first.body.quiz_result.id;
  await submit(course.student, course.courseId, course.lessons.quiz, {
    answers: { q_choice: 'four', q_bool: 'false', q_exact: 'tsc', q_select: ['two', 'three'] },
    time_spent: 30,
  });
});

describe('GET …/quiz/result', () => {
  it('answers the latest attempt by default: the submission without answers, settings and detailed results', async () => {
    const response = await result(course.student, course.courseId, course.lessons.quiz);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      quiz_result: {
        id: expect.any(Number),
        user_id: course.student.id,
        course_id: course.courseId,
        lesson_id: course.lessons.quiz,
        score: 67,
        total_questions: 5,
        correct_answers: 4,
        passed: true,
        passing_score: 60,
        attempt_number: 2,
        time_spent: 30,
        status: 'completed',
        submitted_at: expect.stringMatching(SQL_TIME),
        graded_at: null,
        feedback: 'Congratulations! You passed with a score of 67% (passing score 60%).',
      },
      quiz_settings: {
        max_attempts: 0,
        attempts_used: 2,
        can_retake: true,
        time_limit: 0,
        show_correct_answers: true,
        randomize_questions: false,
      },
      detailed_results: [
        {
          question_id: 'q_choice',
          question: '2 + 2?',
          your_answer: 'four',
          correct_answer: 'four',
          is_correct: true,
          points_earned: 2,
          points_possible: 2,
        },
        expect.objectContaining({ question_id: 'q_select', is_correct: true }),
        expect.objectContaining({ question_id: 'q_bool', is_correct: true }),
        expect.objectContaining({ question_id: 'q_exact', is_correct: true }),
      ],
    });
    expect(response.body.detailed_results.some((d: object) => 'explanation' in d)).toBe(false);
    expect(
      await result(course.student, course.courseId, course.lessons.quiz, { attempt: 'latest' }),
    ).toMatchObject({
      body: response.body,
    });
  });

  it('answers an earlier attempt by number', async () => {
    const response = await result(course.student, course.courseId, course.lessons.quiz, { attempt: 1 });
    expect(response.body.quiz_result).toMatchObject({
      id: firstId,
      attempt_number: 1,
      status: 'in_progress',
      score: 20,
      time_spent: 40,
    });
    expect(response.body.quiz_settings.attempts_used).toBe(2);
    expect(response.body.detailed_results.map((d: { question_id: string }) => d.question_id)).toEqual([
      'q_choice',
      'q_select',
      'q_essay',
    ]);
  });

  it('include_answers=false leaves the detailed results out', async () => {
    for (const value of ['false', '0']) {
      const response = await result(course.student, course.courseId, course.lessons.quiz, {
        include_answers: value,
      });
      expect(response.body).not.toHaveProperty('detailed_results');
      expect(response.body.quiz_result.attempt_number).toBe(2);
    }
    const withAnswers = await result(course.student, course.courseId, course.lessons.quiz, {
      include_answers: 'true',
    });
    expect(withAnswers.body.detailed_results).toHaveLength(4);
  });

  it('show_correct_answers false hides correct_answer, on submit and on result', async () => {
    const submitted = await submit(course.student, course.courseId, course.lessons.hidden, {
      answers: { q_choice: 'five' },
    });
    expect(submitted.body.detailed_results).toEqual([
      {
        question_id: 'q_choice',
        question: '2 + 2?',
        your_answer: 'five',
        is_correct: false,
        points_earned: 0,
        points_possible: 2,
        explanation: 'Arithmetic.',
      },
    ]);
    const stored = await result(course.student, course.courseId, course.lessons.hidden);
    expect(stored.body.detailed_results[0]).not.toHaveProperty('correct_answer');
    expect(stored.body.quiz_settings.show_correct_answers).toBe(false);
  });

  it('quiz_settings follow the attempts used', async () => {
    for (let i = 0; i < 3; i++) {
      await submit(course.student2, course.courseId, course.lessons.limited, {
        answers: { q_choice: 'five' },
      });
    }
    const response = await result(course.student2, course.courseId, course.lessons.limited, { attempt: 2 });
    expect(response.body.quiz_settings).toEqual({
      max_attempts: 3,
      attempts_used: 3,
      can_retake: false,
      time_limit: 0,
      show_correct_answers: true,
      randomize_questions: false,
    });
  });

  it('no attempt yet, no such attempt, course, lesson or quiz: 404 quiz_not_found, bare', async () => {
    const cases: Array<[typeof course.student, number, number, Record<string, string | number>]> = [
      [course.student2, course.courseId, course.lessons.quiz, {}],
      [course.outsider, course.courseId, course.lessons.quiz, {}],
      [course.student, course.courseId, course.lessons.quiz, { attempt: 3 }],
      [course.student, course.courseId, course.lessons.noQuiz, {}],
      [course.student, 999_999_999, course.lessons.quiz, {}],
      [course.student, course.courseId, 999_999_999, {}],
    ];
    for (const [caller, courseId, lessonId, query] of cases) {
      expectBareError(await result(caller, courseId, lessonId, query), 404, 'quiz_not_found');
    }
  });

  it('a bad attempt or include_answers: 400 rest_invalid_param, bare', async () => {
    const queries: Record<string, string | number>[] = [
      { attempt: 0 },
      { attempt: -1 },
      { attempt: 'first' },
      { attempt: '1.5' },
      { include_answers: 'maybe' },
    ];
    for (const query of queries) {
      expectBareError(
        await result(course.student, course.courseId, course.lessons.quiz, query),
        400,
        'rest_invalid_param',
      );
    }
  });

  it('every authenticated caller reads only their own attempts: members, students, course and community admins', async () => {
    await submit(course.courseAdmin, course.courseId, course.lessons.last, { answers: { q_choice: 'four' } });
    const own = await result(course.courseAdmin, course.courseId, course.lessons.last);
    expect(own.status).toBe(200);
    expect(own.body.quiz_result).toMatchObject({ user_id: course.courseAdmin.id, attempt_number: 1 });
    // Nobody reads another's attempt through this route: without attempts of their own it is 404.
    for (const caller of [course.communityAdmin, course.student2, course.outsider]) {
      expectBareError(await result(caller, course.courseId, course.lessons.last), 404, 'quiz_not_found');
    }
  });

  it('anonymous: 401 rest_not_logged_in, bare', async () => {
    expectBareError(await result(undefined, course.courseId, course.lessons.quiz), 401, 'rest_not_logged_in');
    const invalid = await api(
      'GET',
      `/courses/${course.courseId}/lessons/${course.lessons.quiz}/quiz/result`,
      {
        headers: { authorization: 'Basic bm9ib2R5Onh4eA==' },
      },
    );
    expectBareError(invalid, 401, 'invalid_credentials');
  });
});
