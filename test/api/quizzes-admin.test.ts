import { waitForNotificationCount } from '../support/notifications.ts';
import { findStudentProgress } from '../../shared/domain/courses/index.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '../../shared/domain/users/index.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import {
  adminList,
  expectBareError,
  grade,
  importQuizCourse,
  type QuizCourse,
  result,
  submit,
} from '../support/quiz-course.ts';

/**
 * GET /admin/courses/{course_id}/quiz-results and POST /admin/courses/{course_id}/quiz-results/{quiz_id} through
 * the local gateway: every filter × order × direction against an oracle, statistics, pagination block A, manual
 * grading, permissions.
 */

const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

interface Known {
  id: number;
  user: TestUser;
  name: string;
  lesson: number;
  score: number;
  passed: boolean;
  time: number;
  order: number;
}

let course: QuizCourse;
let other: QuizCourse;
const known: Known[] = [];

async function record(user: TestUser, name: string, lesson: number, answers: object, time: number) {
  const response = await submit(user, course.courseId, lesson, { answers, time_spent: time });
  expect(response.status, response.text).toBe(201);
  const { id, score, passed } = response.body.quiz_result;
  known.push({ id, user, name, lesson, score, passed, time, order: known.length });
}

beforeAll(async () => {
  [course, other] = await Promise.all([importQuizCourse({ extraStudents: 3 }), importQuizCourse()]);
  const [extra0, extra1, extra2] = course.extraStudents as [TestUser, TestUser, TestUser];
  const display = async (user: TestUser) => (await findUserById(user.id))?.display_name ?? '';
  const everything = {
    q_choice: 'four',
    q_select: ['two', 'three'],
    q_bool: 'false',
    q_exact: 'tsc',
    q_essay: 'An essay.',
  };
  // S1: 10 of 15 → 67, passed, waiting for a grader (essay)
  await record(course.student, await display(course.student), course.lessons.quiz, everything, 50);
  // S2: 0, failed
  await record(
    course.student2,
    await display(course.student2),
    course.lessons.quiz,
    { q_choice: 'five' },
    20,
  );
  // S3: 100, passed
  await record(extra0, await display(extra0), course.lessons.last, { q_choice: 'four' }, 10);
  // S4: 0, failed
  await record(extra1, await display(extra1), course.lessons.last, { q_choice: 'five' }, 15);
  // S5: 7 of 15 → 47, failed
  await record(
    extra2,
    await display(extra2),
    course.lessons.quiz,
    { q_choice: 'four', q_bool: 'false', q_exact: 'tsc' },
    35,
  );
  // S6: 100, passed
  await record(course.student, await display(course.student), course.lessons.last, { q_choice: 'four' }, 5);
  // Another course's submission, never listed here.
  await submit(other.student, other.courseId, other.lessons.quiz, { answers: { q_choice: 'four' } });
});

/** The oracle: the expected ids of a filtered, ordered list. */
function expected(
  filter: { lesson?: number; user?: number; status: string },
  orderby: string,
  order: string,
) {
  const fold = (name: string) => name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const rows = known.filter(
    (row) =>
      (filter.lesson === undefined || row.lesson === filter.lesson) &&
      (filter.user === undefined || row.user.id === filter.user) &&
      (filter.status === 'all' || row.passed === (filter.status === 'passed')),
  );
  const compare = (a: Known, b: Known): number => {
    if (orderby === 'score' && a.score !== b.score) return a.score - b.score;
    if (orderby === 'user_name') {
      if (fold(a.name) !== fold(b.name)) return fold(a.name) < fold(b.name) ? -1 : 1;
      if (a.user.id !== b.user.id) return a.user.id - b.user.id;
    }
    return a.order - b.order;
  };
  const sorted = rows.sort(compare).map((row) => row.id);
  return order === 'asc' ? sorted : sorted.reverse();
}

describe('GET /admin/courses/{id}/quiz-results', () => {
  it('lists rows with xprofile and lesson, pagination block A and statistics', async () => {
    const response = await adminList(course.courseAdmin, course.courseId);
    expect(response.status, response.text).toBe(200);
    const { quiz_results: rows, pagination, statistics } = response.body;
    expect(rows.map((row: { id: number }) => row.id)).toEqual(
      expected({ status: 'all' }, 'submitted_at', 'desc'),
    );
    const first = known[0] as Known;
    expect(rows.find((row: { id: number }) => row.id === first.id)).toEqual({
      id: first.id,
      xprofile: expect.objectContaining({
        user_id: course.student.id,
        username: course.student.username,
        display_name: first.name,
        meta: expect.any(Object),
      }),
      lesson: { id: course.lessons.quiz, title: 'Lesson quiz', slug: expect.stringMatching(/^lesson-quiz-/) },
      score: 67,
      total_questions: 5,
      correct_answers: 4,
      passed: true,
      attempt_number: 1,
      time_spent: 50,
      status: 'in_progress',
      submitted_at: expect.stringMatching(SQL_TIME),
    });
    expect(pagination).toEqual({ total: 6, per_page: 20, current_page: 1, total_pages: 1 });
    // (67 + 0 + 100 + 0 + 47 + 100) / 6 and (50 + 20 + 10 + 15 + 35 + 5) / 6
    expect(statistics).toEqual({
      total_submissions: 6,
      passed: 3,
      failed: 3,
      average_score: 52.33,
      average_time: 22.5,
    });
  });

  it('serves every filter × order × direction in the right order, with statistics over the filtered set', async () => {
    const filters = [
      {},
      { lesson: course.lessons.quiz },
      { user: course.student.id },
      { lesson: course.lessons.last, user: course.student.id },
    ];
    for (const base of filters) {
      for (const status of ['all', 'passed', 'failed']) {
        for (const orderby of ['submitted_at', 'score', 'user_name']) {
          for (const order of ['asc', 'desc']) {
            const filter = { ...base, status };
            const query: Record<string, string | number> = { status, orderby, order };
            if (base.lesson !== undefined) query.lesson_id = base.lesson;
            if (base.user !== undefined) query.user_id = base.user;
            const response = await adminList(course.communityAdmin, course.courseId, query);
            const ids = response.body.quiz_results.map((row: { id: number }) => row.id);
            const want = expected(filter, orderby, order);
            expect(ids, JSON.stringify(query)).toEqual(want);
            expect(response.body.pagination.total, JSON.stringify(query)).toBe(want.length);
            const rows = known.filter((row) => want.includes(row.id));
            expect(response.body.statistics, JSON.stringify(query)).toMatchObject({
              total_submissions: rows.length,
              passed: rows.filter((row) => row.passed).length,
              failed: rows.filter((row) => !row.passed).length,
            });
          }
        }
      }
    }
  });

  it('pages with block A: bounds, later pages, past the end', async () => {
    const all = expected({ status: 'all' }, 'submitted_at', 'desc');
    const page2 = await adminList(course.courseAdmin, course.courseId, { per_page: 2, page: 2 });
    expect(page2.body.quiz_results.map((row: { id: number }) => row.id)).toEqual(all.slice(2, 4));
    expect(page2.body.pagination).toEqual({ total: 6, per_page: 2, current_page: 2, total_pages: 3 });
    const byScore = await adminList(course.courseAdmin, course.courseId, {
      per_page: 4,
      page: 2,
      orderby: 'score',
    });
    expect(byScore.body.quiz_results.map((row: { id: number }) => row.id)).toEqual(
      expected({ status: 'all' }, 'score', 'desc').slice(4),
    );
    const past = await adminList(course.courseAdmin, course.courseId, { per_page: 2, page: 4 });
    expect(past.status).toBe(200);
    expect(past.body.quiz_results).toEqual([]);
    expect(past.body.pagination).toEqual({ total: 6, per_page: 2, current_page: 4, total_pages: 3 });
    expect((await adminList(course.courseAdmin, course.courseId, { per_page: 100 })).status).toBe(200);
    const bad: Record<string, string | number>[] = [
      { per_page: 0 },
      { per_page: 101 },
      { page: 0 },
      { page: 'x' },
      { status: 'graded' },
      { orderby: 'name' },
      { order: 'up' },
      { lesson_id: 0 },
      { user_id: 'me' },
    ];
    for (const query of bad) {
      expectBareError(await adminList(course.courseAdmin, course.courseId, query), 400, 'rest_invalid_param');
    }
  });

  it('answers an empty list for a lesson or student without submissions', async () => {
    const response = await adminList(course.courseAdmin, course.courseId, { lesson_id: course.lessons.next });
    expect(response.body).toEqual({
      quiz_results: [],
      pagination: { total: 0, per_page: 20, current_page: 1, total_pages: 1 },
      statistics: { total_submissions: 0, passed: 0, failed: 0, average_score: 0, average_time: 0 },
    });
    const nobody = await adminList(course.courseAdmin, course.courseId, { user_id: course.outsider.id });
    expect(nobody.body.quiz_results).toEqual([]);
  });

  it('permissions: community admins, host admins and the course admins; others 403; anonymous 401', async () => {
    const hostAdmin = await createTestUser({ hostRole: 'administrator' });
    for (const caller of [course.courseAdmin, course.communityAdmin, hostAdmin]) {
      expect((await adminList(caller, course.courseId)).status).toBe(200);
    }
    for (const caller of [course.student, course.outsider, other.courseAdmin]) {
      expectBareError(await adminList(caller, course.courseId), 403, 'rest_forbidden');
    }
    expectBareError(await adminList(undefined, course.courseId), 401, 'rest_not_logged_in');
    expectBareError(await adminList(course.communityAdmin, 999_999_999), 404, 'quiz_not_found');
  });
});

describe('POST /admin/courses/{id}/quiz-results/{quiz_id}', () => {
  it('grades a written answer: in_progress → graded, score recomputed, list and statistics follow', async () => {
    const s1 = known[0] as Known;
    const response = await grade(course.courseAdmin, course.courseId, s1.id, {
      answers: { q_essay: { is_correct: true, points_earned: 5 } },
      feedback: 'Well argued.',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      message: 'Quiz result updated successfully',
      quiz_result: {
        id: s1.id,
        score: 100,
        passed: true,
        feedback: 'Well argued.',
        status: 'graded',
        graded_at: expect.stringMatching(SQL_TIME),
        graded_by: { id: course.courseAdmin.id, display_name: expect.stringMatching(/^Course Admin /) },
      },
    });
    s1.score = 100;

    const list = await adminList(course.courseAdmin, course.courseId, { lesson_id: course.lessons.quiz });
    expect(list.body.quiz_results.find((row: { id: number }) => row.id === s1.id)).toMatchObject({
      score: 100,
      status: 'graded',
      correct_answers: 5,
    });
    // (100 + 0 + 47) / 3
    expect(list.body.statistics).toMatchObject({
      total_submissions: 3,
      passed: 1,
      failed: 2,
      average_score: 49,
    });
    const byScore = await adminList(course.courseAdmin, course.courseId, { orderby: 'score' });
    expect(byScore.body.quiz_results.map((row: { id: number }) => row.id)).toEqual(
      expected({ status: 'all' }, 'score', 'desc'),
    );

    const own = await result(course.student, course.courseId, course.lessons.quiz, { attempt: 1 });
    expect(own.body.quiz_result).toMatchObject({
      status: 'graded',
      score: 100,
      feedback: 'Well argued.',
      graded_at: expect.stringMatching(SQL_TIME),
    });
    expect(
      own.body.detailed_results.find((d: { question_id: string }) => d.question_id === 'q_essay'),
    ).toMatchObject({
      is_correct: true,
      points_earned: 5,
    });
  });

  it('a given score wins; passed follows it, moves the submission between results and completes the lesson', async () => {
    const s5 = known[4] as Known;
    const student = course.extraStudents[2] as TestUser;
    expect((await findStudentProgress(course.courseId, student.id)).progress.completed.size).toBe(0);
    const response = await grade(course.communityAdmin, course.courseId, s5.id, { score: 90 });
    expect(response.body.quiz_result).toMatchObject({ score: 90, passed: true, status: 'graded' });
    expect(response.body.quiz_result.feedback).toContain('passed');
    s5.score = 90;
    s5.passed = true;

    for (const status of ['passed', 'failed']) {
      const list = await adminList(course.courseAdmin, course.courseId, { status, orderby: 'score' });
      expect(list.body.quiz_results.map((row: { id: number }) => row.id)).toEqual(
        expected({ status }, 'score', 'desc'),
      );
    }
    const all = await adminList(course.courseAdmin, course.courseId);
    expect(all.body.statistics).toEqual({
      total_submissions: 6,
      passed: 4,
      failed: 2,
      average_score: 65, // (100 + 0 + 100 + 0 + 90 + 100) / 6
      average_time: 22.5,
    });
    const { progress } = await findStudentProgress(course.courseId, student.id);
    expect([...progress.completed]).toEqual([course.lessons.quiz]);
    // Stored by the notify worker a moment after the grading.
    const notices = await waitForNotificationCount(student, 1, { type: 'lesson_complete' });
    expect(notices.map((n) => n.object_id)).toEqual([course.lessons.quiz]);
  });

  it('a given passed wins over the score', async () => {
    const s4 = known[3] as Known;
    const response = await grade(course.courseAdmin, course.courseId, s4.id, { score: 95, passed: false });
    expect(response.body.quiz_result).toMatchObject({ score: 95, passed: false });
    s4.score = 95;
    const failed = await adminList(course.courseAdmin, course.courseId, { status: 'failed' });
    expect(failed.body.statistics).toMatchObject({ total_submissions: 2, average_score: 47.5 });
  });

  it('another course’s or an unknown submission: 404 quiz_not_found', async () => {
    const foreign = await adminList(other.communityAdmin, other.courseId);
    const foreignId = foreign.body.quiz_results[0].id;
    expectBareError(await grade(course.courseAdmin, course.courseId, foreignId, {}), 404, 'quiz_not_found');
    expectBareError(
      await grade(course.communityAdmin, course.courseId, foreignId, {}),
      404,
      'quiz_not_found',
    );
    expectBareError(await grade(course.courseAdmin, course.courseId, 999_999_999, {}), 404, 'quiz_not_found');
    expectBareError(await grade(course.communityAdmin, 999_999_999, foreignId, {}), 404, 'quiz_not_found');
  });

  it('refuses grades for unanswered questions, too many points and bad bodies', async () => {
    const s2 = known[1] as Known;
    for (const body of [
      { answers: { q_essay: { is_correct: true, points_earned: 1 } } },
      { answers: { q_choice: { is_correct: true, points_earned: 3 } } },
      { answers: { q_nope: { is_correct: true, points_earned: 1 } } },
      { answers: { q_choice: { is_correct: true } } },
      { answers: { q_choice: { is_correct: true, points_earned: 1, extra: 1 } } },
      { score: 101 },
      { score: -1 },
      { score: 50.5 },
      { passed: 'yes' },
      { status: 'passed' },
    ]) {
      const response = await grade(course.courseAdmin, course.courseId, s2.id, body);
      expect([400], `${JSON.stringify(body)}: ${response.text}`).toContain(response.status);
      expect(Object.keys(response.body).sort()).toEqual(['code', 'message']);
    }
    const untouched = await adminList(course.courseAdmin, course.courseId, { user_id: s2.user.id });
    expect(untouched.body.quiz_results[0]).toMatchObject({ status: 'completed', score: 0 });
  });

  it('permissions: students, members and other courses’ admins 403; anonymous 401', async () => {
    const s2 = known[1] as Known;
    for (const caller of [course.student, course.outsider, other.courseAdmin]) {
      expectBareError(await grade(caller, course.courseId, s2.id, { score: 100 }), 403, 'rest_forbidden');
    }
    expectBareError(await grade(undefined, course.courseId, s2.id, {}), 401, 'rest_not_logged_in');
    const check = await adminList(course.courseAdmin, course.courseId, { user_id: s2.user.id });
    expect(check.body.quiz_results[0].score).toBe(0);
  });
});
