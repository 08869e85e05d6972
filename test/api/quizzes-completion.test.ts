import { waitForNotificationCount, waitForNotifications } from '../support/notifications.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { completeLesson, findCourseStats, findStudentProgress } from '../../shared/domain/courses/index.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { statsScopeOf } from '../../shared/domain/quizzes/quiz-submission-item.ts';
import { findQuizStats } from '../../shared/domain/quizzes/quiz-submission-repository.ts';
import { createTestUser, type TestUser } from '../support/api.ts';
import {
  expectBareError,
  importQuizCourse,
  type QuizCourse,
  result,
  submit,
} from '../support/quiz-course.ts';

/**
 * Passing a quiz lesson completes it for course progress (the membership's `completed_lessons`, the course's
 * `total_completions` and `completed_students`), once, and notifies the student with `lesson_complete`.
 */

describe('passing completes the lesson', () => {
  let own: QuizCourse;
  let sequential: QuizCourse;
  beforeAll(async () => {
    [own, sequential] = await Promise.all([importQuizCourse(), importQuizCourse({ sequential: true })]);
  });

  /** Stored by the notify worker a moment after the request: at least `atLeast` of them. */
  const notificationsOf = (user: TestUser, atLeast = 0) =>
    waitForNotificationCount(user, atLeast, { type: 'lesson_complete' });

  it('records the completion once and notifies the student once; a fail records nothing', async () => {
    await submit(own.student, own.courseId, own.lessons.last, { answers: { q_choice: 'five' } });
    expect((await findStudentProgress(own.courseId, own.student.id)).progress.completed.size).toBe(0);
    expect(await notificationsOf(own.student)).toEqual([]);

    for (let i = 0; i < 2; i++) {
      const passed = await submit(own.student, own.courseId, own.lessons.last, {
        answers: { q_choice: 'four' },
      });
      expect(passed.body.quiz_result.passed).toBe(true);
    }
    const { progress } = await findStudentProgress(own.courseId, own.student.id);
    expect([...progress.completed]).toEqual([own.lessons.last]);
    const stats = await findCourseStats(own.courseId);
    expect(stats).toMatchObject({ total_completions: 1, completed_students: 0 });
    expect((await findQuizStats(statsScopeOf(own.courseId, {}))).total_submissions).toBe(3);
    const notifications = await notificationsOf(own.student, 1);
    expect(notifications).toEqual([
      expect.objectContaining({ type: 'lesson_complete', object_id: own.lessons.last }),
    ]);
  });

  it('keeps the next lesson open after a failed retake of a passed quiz (sequential course)', async () => {
    const pass = await submit(sequential.student2, sequential.courseId, sequential.lessons.quiz, {
      answers: { q_choice: 'four', q_select: ['two', 'three'], q_exact: 'tsc' },
    });
    expect(pass.body.quiz_result).toMatchObject({ passed: true, next_lesson_unlocked: true });
    const fail = await submit(sequential.student2, sequential.courseId, sequential.lessons.quiz, {
      answers: { q_choice: 'five' },
    });
    expect(fail.body.quiz_result).toMatchObject({ passed: false, next_lesson_unlocked: true });
  });

  it('issue 21 item 2: a quiz lesson that sequential_lesson_order locks is refused (400 lesson_locked), nothing recorded, no notification', async () => {
    const { student, courseId, lessons } = sequential;
    const before = await findCourseStats(courseId);
    const locked = await submit(student, courseId, lessons.last, { answers: { q_choice: 'four' } });
    expectBareError(locked, 400, 'lesson_locked');
    expect((await result(student, courseId, lessons.last)).status).toBe(404); // no attempt stored
    expect((await findStudentProgress(courseId, student.id)).progress.completed.size).toBe(0);
    expect(await findCourseStats(courseId)).toEqual(before);
    expect(await notificationsOf(student)).toEqual([]);
    // Course staff are never locked out (they record no progress).
    const staff = await submit(sequential.courseAdmin, courseId, lessons.last, {
      answers: { q_choice: 'four' },
    });
    expect(staff.status, staff.text).toBe(201);
  });

  it('issue 21 item 13: lesson_complete names the student as its actor, with their xprofile', async () => {
    const { student, courseId, lessons } = own;
    const passed = await submit(student, courseId, lessons.once, { answers: { q_choice: 'four' } });
    expect(passed.status, passed.text).toBe(201);
    const listed = await waitForNotifications(
      student,
      (items) => items.some((row) => row.object_id === lessons.once),
      { type: 'lesson_complete' },
    );
    const item = listed.find((row) => row.object_id === lessons.once);
    expect(item).toMatchObject({
      actor_id: student.id,
      xprofile: expect.objectContaining({ user_id: student.id, username: student.username }),
    });
  });

  it('course staff passing a quiz move no course progress', async () => {
    await submit(own.courseAdmin, own.courseId, own.lessons.last, { answers: { q_choice: 'four' } });
    expect((await findStudentProgress(own.courseId, own.courseAdmin.id)).progress.completed.size).toBe(0);
  });

  it('counts a student as completed when the pass completes every published lesson', async () => {
    const tag = Date.now().toString(36);
    const student = await createTestUser();
    const output = await runImport({
      courses: [
        {
          ref: 'c',
          title: 'Two lessons',
          slug: `two-lessons-${tag}`,
          students: [student.username],
          lessons: [
            { ref: 'read', title: 'Read', slug: `read-${tag}` },
            { ref: 'draft', title: 'Draft', slug: `draft-${tag}`, status: 'draft' },
            {
              ref: 'test',
              title: 'Test',
              slug: `test-${tag}`,
              quiz: {
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
              },
            },
          ],
        },
      ],
    });
    const courseId = output.courses.c?.id as number;
    const lessons = output.courses.c?.lessons as Record<string, number>;
    // The non-quiz lesson through the courses domain's completion (the course administration will call it).
    expect(await completeLesson(courseId, student.id, lessons.read as number)).toBe(true);
    expect(await completeLesson(courseId, student.id, lessons.read as number)).toBe(false);
    const pass = await submit(student, courseId, lessons.test as number, { answers: { q: 'true' } });
    expect(pass.body.quiz_result).toMatchObject({ passed: true, score: 100, next_lesson_unlocked: false });
    expect(await findCourseStats(courseId)).toMatchObject({ total_completions: 2, completed_students: 1 });
    await submit(student, courseId, lessons.test as number, { answers: { q: 'true' } });
    expect(await findCourseStats(courseId)).toMatchObject({ total_completions: 2, completed_students: 1 });
  });
});
