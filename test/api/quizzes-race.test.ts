import { randomBytes } from 'node:crypto';
import { findCourseStats, findStudentProgress } from '../../shared/domain/courses/index.ts';
import { describe, expect, it } from 'vitest';
import { courseQuizStatsKey, courseStatsKey, lessonQuizStatsKey } from '../../shared/db/keys/courses.ts';
import { batchGetRawItems } from '../../shared/db/reads.ts';
import { shardedAggregate, shardKeys } from '../../shared/db/sharded-counters.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { statsScopeOf } from '../../shared/domain/quizzes/quiz-submission-item.ts';
import { findQuizStats } from '../../shared/domain/quizzes/quiz-submission-repository.ts';
import { QUIZ_STATS_SHARDS } from '../../shared/domain/quizzes/quiz-submission-item.ts';
import { createTestUser } from '../support/api.ts';
import {
  adminList,
  expectBareError,
  grade,
  importQuizCourse,
  result,
  submit,
} from '../support/quiz-course.ts';

/** Limits and counters under truly concurrent requests through the local gateway. */

describe('concurrent submissions', () => {
  // DynamoDB Local runs transactions one at a time, so fifty racing submissions (about a hundred transactions, most
  // refused on the attempt slot's condition) take tens of seconds here; the cloud runs them side by side.
  it('fifty submissions by one student to a quiz with max_attempts 3 store exactly three attempts', {
    timeout: 180_000,
  }, async () => {
    const course = await importQuizCourse();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        submit(course.student, course.courseId, course.lessons.limited, {
          answers: { q_choice: i % 2 === 0 ? 'four' : 'five' },
          time_spent: i,
        }),
      ),
    );
    const created = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status !== 201);
    expect(created).toHaveLength(3);
    expect(created.map((response) => response.body.quiz_result.attempt_number).sort()).toEqual([1, 2, 3]);
    expect(refused).toHaveLength(47);
    for (const response of refused) expectBareError(response, 403, 'max_attempts_reached');

    const list = await adminList(course.courseAdmin, course.courseId, {
      user_id: course.student.id,
      lesson_id: course.lessons.limited,
      order: 'asc',
    });
    expect(list.body.quiz_results.map((row: { attempt_number: number }) => row.attempt_number)).toEqual([
      1, 2, 3,
    ]);
    expect(list.body.statistics.total_submissions).toBe(3);
    expect((await adminList(course.courseAdmin, course.courseId)).body.pagination.total).toBe(3);
    expect((await findQuizStats(statsScopeOf(course.courseId, {}))).total_submissions).toBe(3);
    const latest = await result(course.student, course.courseId, course.lessons.limited);
    expect(latest.body.quiz_settings).toMatchObject({ attempts_used: 3, can_retake: false });
  });

  it('ten submissions to a quiz without retakes store one', async () => {
    const course = await importQuizCourse();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        submit(course.student, course.courseId, course.lessons.once, { answers: { q_choice: 'four' } }),
      ),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 201)) {
      expectBareError(response, 409, 'already_submitted');
    }
  });
});

describe('sharded course statistics', () => {
  it('thirty students submitting at once: course and lesson statistics exact, spread over shards, no course item written', async () => {
    const course = await importQuizCourse({ extraStudents: 28 });
    const students = [course.student, course.student2, ...course.extraStudents];
    const responses = await Promise.all(
      students.map((student, i) =>
        submit(student, course.courseId, course.lessons.limited, {
          answers: { q_choice: i % 3 === 0 ? 'five' : 'four' },
          time_spent: i,
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(students.map(() => 201));
    const scores = responses.map((response) => response.body.quiz_result.score as number);
    const expected = {
      total_submissions: 30,
      passed: 20,
      failed: 10,
      average_score: Math.round((scores.reduce((a, b) => a + b, 0) / 30) * 100) / 100,
      average_time: 14.5,
    };
    for (const query of [{}, { lesson_id: course.lessons.limited }] as Record<string, number>[]) {
      const list = await adminList(course.courseAdmin, course.courseId, query);
      expect(list.body.statistics).toEqual(expected);
      expect(list.body.pagination.total).toBe(30);
    }
    const failed = await adminList(course.courseAdmin, course.courseId, { status: 'failed' });
    expect(failed.body.statistics).toMatchObject({ total_submissions: 10, passed: 0, failed: 10 });

    // Where the counts landed: on several shards of each course-wide scope; the scopes' own items (which only
    // submissions with counter ids move) and the course stats item were not written by any submission.
    for (const key of [
      courseQuizStatsKey(course.courseId),
      lessonQuizStatsKey(course.courseId, course.lessons.limited),
    ]) {
      const shards = await batchGetRawItems(shardKeys(shardedAggregate(key, QUIZ_STATS_SHARDS)), true);
      expect(shards.length).toBeGreaterThan(1);
      expect(shards.reduce((sum, shard) => sum + Number(shard.total_submissions), 0)).toBe(30);
      expect(await batchGetRawItems([key], true)).toEqual([]);
    }
    const [stats] = await batchGetRawItems([courseStatsKey(course.courseId)], true);
    expect(stats?.quiz_submissions_count).toBeUndefined();
  });
});

describe('concurrent grading', () => {
  it('applies every grading once: statistics end equal to the last grade written', async () => {
    const course = await importQuizCourse();
    const submitted = await submit(course.student, course.courseId, course.lessons.quiz, {
      answers: { q_choice: 'four', q_essay: 'An essay.' },
      time_spent: 30,
    });
    const id = submitted.body.quiz_result.id;
    const scores = [10, 90, 20, 80, 30, 70, 40, 60, 50, 100];
    const responses = await Promise.all(
      scores.map((score) => grade(course.courseAdmin, course.courseId, id, { score })),
    );
    expect(responses.map((response) => response.status)).toEqual(scores.map(() => 200));
    const list = await adminList(course.courseAdmin, course.courseId, { lesson_id: course.lessons.quiz });
    const [row] = list.body.quiz_results;
    expect(list.body.statistics).toEqual({
      total_submissions: 1,
      passed: row.passed ? 1 : 0,
      failed: row.passed ? 0 : 1,
      average_score: row.score,
      average_time: 30,
    });
    const byResult = await adminList(course.courseAdmin, course.courseId, {
      status: row.passed ? 'passed' : 'failed',
      orderby: 'score',
    });
    expect(byResult.body.quiz_results.map((r: { id: number }) => r.id)).toEqual([id]);
  });
});

describe('concurrent completions', () => {
  it('passing the last two lessons at once counts the student as completed exactly once', async () => {
    const tag = randomBytes(4).toString('hex');
    const student = await createTestUser();
    const quiz = {
      questions: [
        {
          id: 'q',
          type: 'true_false',
          question: 'Yes?',
          options: [
            { id: 'true', text: 'Yes', is_correct: true },
            { id: 'false', text: 'No', is_correct: false },
          ],
        },
      ],
    };
    const output = await runImport({
      courses: [
        {
          ref: 'c',
          title: 'Race',
          slug: `race-${tag}`,
          students: [student.username],
          lessons: [
            { ref: 'a', title: 'A', slug: `a-${tag}`, quiz },
            { ref: 'b', title: 'B', slug: `b-${tag}`, quiz },
          ],
        },
      ],
    });
    const courseId = output.courses.c?.id as number;
    const lessons = output.courses.c?.lessons as Record<string, number>;
    const responses = await Promise.all(
      [lessons.a, lessons.b, lessons.a, lessons.b].map((lessonId) =>
        submit(student, courseId, lessonId as number, { answers: { q: 'true' } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201]);
    expect(await findCourseStats(courseId)).toMatchObject({ total_completions: 2, completed_students: 1 });
    expect(await findQuizStats(statsScopeOf(courseId, {}))).toMatchObject({
      total_submissions: 4,
      passed: 4,
    });
    const { progress } = await findStudentProgress(courseId, student.id);
    expect([...progress.completed].sort()).toEqual([lessons.a, lessons.b].sort());
  });
});
