import { findCourseStats, findStudentProgress } from '../../shared/domain/courses/index.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { courseCompletionStats, courseProgressKey, courseStatsKey } from '../../shared/db/keys/courses.ts';
import { membershipKey } from '../../shared/db/keys/spaces.ts';
import type { ItemKey } from '../../shared/db/partition.ts';
import { batchGetRawItems } from '../../shared/db/reads.ts';
import { shardKeys } from '../../shared/db/sharded-counters.ts';
import { api, type TestUser } from '../support/api.ts';
import {
  complete,
  createPeople,
  importCourse,
  type People,
  type TestCourse,
} from '../support/course-admin.ts';
import { expectError } from '../support/feeds.ts';
import { submit } from '../support/quiz-course.ts';

/** `PUT /courses/{course_id}/lessons/{lesson_id}/completion` (issue 12, item 4: lesson progress). */

let people: People;
let course: TestCourse;
beforeAll(async () => {
  [people, course] = await Promise.all([createPeople(), importCourse({ withQuiz: true, students: 3 })]);
});

const lesson = (own: TestCourse, ref: string) => own.lessons[ref] as number;

describe('marking lessons', () => {
  it('answers the state, the completed lessons and the progress; repeating changes nothing', async () => {
    const own = await importCourse();
    const student = own.students[0] as TestUser;
    const first = await complete(student, own.courseId, lesson(own, 'one'));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      message: 'Lesson marked as completed.',
      data: {
        course_id: own.courseId,
        lesson_id: lesson(own, 'one'),
        state: 'completed',
        completed_lessons: [lesson(own, 'one')],
        total_lessons: 2,
        progress: 50,
        course_completed: false,
      },
    });
    const again = await complete(student, own.courseId, lesson(own, 'one'));
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await findCourseStats(own.courseId)).toMatchObject({
      total_completions: 1,
      completed_students: 0,
    });

    const both = await complete(student, own.courseId, lesson(own, 'two'));
    expect(both.body.data).toMatchObject({ progress: 100, course_completed: true });
    expect(await findCourseStats(own.courseId)).toMatchObject({
      total_completions: 2,
      completed_students: 1,
    });

    const undo = await complete(student, own.courseId, lesson(own, 'one'), 'incomplete');
    expect(undo.body).toMatchObject({
      message: 'Lesson marked as incomplete.',
      data: { state: 'incomplete', completed_lessons: [lesson(own, 'two')], course_completed: false },
    });
    const undoAgain = await complete(student, own.courseId, lesson(own, 'one'), 'incomplete');
    expect(undoAgain.body.data).toEqual(undo.body.data);
    expect(await findCourseStats(own.courseId)).toMatchObject({
      total_completions: 1,
      completed_students: 0,
    });
    const { progress } = await findStudentProgress(own.courseId, student.id);
    expect([...progress.completed]).toEqual([lesson(own, 'two')]);
  });

  it('refuses a later lesson before an earlier one in a sequential course (400 lesson_locked)', async () => {
    const own = await importCourse({ sequential: true });
    const student = own.students[0] as TestUser;
    const locked = await complete(student, own.courseId, lesson(own, 'two'));
    expectError(locked, 400, 'lesson_locked');
    expect(locked.body.data.required_lesson_id).toBe(lesson(own, 'one'));
    expect((await findCourseStats(own.courseId)).total_completions ?? 0).toBe(0);
    expect((await complete(student, own.courseId, lesson(own, 'one'))).status).toBe(200);
    expect((await complete(student, own.courseId, lesson(own, 'two'))).status).toBe(200);
  });

  it('a quiz lesson is completed only by passing its quiz (400 quiz_required)', async () => {
    const student = course.students[0] as TestUser;
    expectError(await complete(student, course.courseId, lesson(course, 'quiz')), 400, 'quiz_required');
    expectError(
      await complete(student, course.courseId, lesson(course, 'quiz'), 'incomplete'),
      400,
      'quiz_required',
    );
    const passed = await submit(student, course.courseId, lesson(course, 'quiz'), { answers: { q1: 'a' } });
    expect(passed.status, passed.text).toBe(201);
    const { progress } = await findStudentProgress(course.courseId, student.id);
    expect(progress.completed.has(lesson(course, 'quiz'))).toBe(true);
  });

  it('drafts, lessons of other courses and unknown ids are 404 not_found', async () => {
    const student = course.students[1] as TestUser;
    expectError(await complete(student, course.courseId, lesson(course, 'draft')), 404, 'not_found');
    expectError(await complete(student, course.courseId, 999_999_999), 404, 'not_found');
    const other = await importCourse({ students: 0 });
    expectError(await complete(student, course.courseId, lesson(other, 'one')), 404, 'not_found');
    expectError(await complete(student, 999_999_999, lesson(course, 'one')), 404, 'not_found');
  });

  it('validates the body: a missing or unknown state, unknown fields', async () => {
    const student = course.students[1] as TestUser;
    const base = `/courses/${course.courseId}/lessons/${lesson(course, 'one')}/completion`;
    expectError(await api('PUT', base, { as: student, body: {} }), 400, 'rest_missing_callback_param');
    expectError(
      await complete(student, course.courseId, lesson(course, 'one'), 'done'),
      400,
      'rest_invalid_param',
    );
    expectError(
      await api('PUT', base, { as: student, body: { state: 'completed', extra: 1 } }),
      400,
      'rest_invalid_param',
    );
    expect((await findStudentProgress(course.courseId, student.id)).progress.completed.size).toBe(0);
  });
});

describe('exact and idempotent under concurrency', () => {
  it('parallel completions of every lesson by one student count each once and the student once', async () => {
    const own = await importCourse({ students: 1 });
    const student = own.students[0] as TestUser;
    const responses = await Promise.all(
      [1, 2, 3].flatMap(() => [
        complete(student, own.courseId, lesson(own, 'one')),
        complete(student, own.courseId, lesson(own, 'two')),
      ]),
    );
    for (const response of responses) expect(response.status, response.text).toBe(200);
    expect(await findCourseStats(own.courseId)).toMatchObject({
      total_completions: 2,
      completed_students: 1,
    });
  });

  it('parallel completions and incompletions leave counters matching the stored sets', async () => {
    const own = await importCourse({ students: 2 });
    const calls = own.students.flatMap((student) =>
      [0, 1, 2, 3].flatMap((round) => [
        complete(student, own.courseId, lesson(own, 'one'), round % 2 ? 'incomplete' : 'completed'),
        complete(student, own.courseId, lesson(own, 'two'), round % 3 ? 'completed' : 'incomplete'),
      ]),
    );
    for (const response of await Promise.all(calls)) expect(response.status, response.text).toBe(200);
    let completions = 0;
    let completedStudents = 0;
    for (const student of own.students) {
      const set = (await findStudentProgress(own.courseId, student.id)).progress.completed;
      completions += set?.size ?? 0;
      if (set?.size === 2) completedStudents += 1;
    }
    const stats = await findCourseStats(own.courseId);
    expect(stats.total_completions ?? 0).toBe(completions);
    expect(stats.completed_students ?? 0).toBe(completedStudents);
  });
});

describe('where progress is stored (issue 20: no completion writes the course partition)', () => {
  it("a student's progress is on their own item and counted on their shard, not on the course's items", async () => {
    const own = await importCourse({ students: 1 });
    const student = own.students[0] as TestUser;
    expect((await complete(student, own.courseId, lesson(own, 'one'))).status).toBe(200);
    expect((await complete(student, own.courseId, lesson(own, 'two'))).status).toBe(200);
    const read = async (key: ItemKey) => (await batchGetRawItems([key], true))[0];
    const progressItem = await read(courseProgressKey(own.courseId, student.id));
    const membership = await read(membershipKey(own.courseId, student.id));
    const courseItem = await read(courseStatsKey(own.courseId));
    expect([...((progressItem?.completed_lessons as Set<number>) ?? [])].sort()).toEqual(
      [lesson(own, 'one'), lesson(own, 'two')].sort(),
    );
    expect(membership).not.toHaveProperty('completed_lessons');
    expect(courseItem?.total_completions ?? 0).toBe(0);
    const shards = await batchGetRawItems(shardKeys(courseCompletionStats(own.courseId)), true);
    expect(shards.map((shard) => [shard.total_completions, shard.completed_students])).toEqual([[2, 1]]);
  });

  it('progress recorded on the membership (before progress items, or imported) stays there, counted on the course', async () => {
    const own = await importCourse({
      students: 1,
      completions: (students) => [{ user: (students[0] as TestUser).username, lesson: 'one' }],
    });
    const student = own.students[0] as TestUser;
    const done = await complete(student, own.courseId, lesson(own, 'two'));
    expect(done.body.data).toMatchObject({ completed_lessons: [lesson(own, 'one'), lesson(own, 'two')] });
    const [membership] = await batchGetRawItems([membershipKey(own.courseId, student.id)], true);
    expect([...((membership?.completed_lessons as Set<number> | undefined) ?? [])]).toHaveLength(2);
    expect(await findCourseStats(own.courseId)).toMatchObject({
      total_completions: 2,
      completed_students: 1,
    });
    // Emptied, the membership's set is gone for good: the next completion starts the progress item.
    for (const ref of ['one', 'two'])
      expect((await complete(student, own.courseId, lesson(own, ref), 'incomplete')).status).toBe(200);
    expect(await findCourseStats(own.courseId)).toMatchObject({
      total_completions: 0,
      completed_students: 0,
    });
    expect((await complete(student, own.courseId, lesson(own, 'two'))).status).toBe(200);
    const { progress } = await findStudentProgress(own.courseId, student.id);
    expect(progress).toEqual({ completed: new Set([lesson(own, 'two')]), home: 'item' });
    expect(await findCourseStats(own.courseId)).toMatchObject({
      total_completions: 1,
      completed_students: 0,
    });
  });
});

describe('permission matrix', () => {
  it('only an active student of the course records progress; everyone else is 403 rest_forbidden', async () => {
    for (const caller of [
      people.member,
      people.spaceModerator,
      people.spaceAdmin,
      course.courseAdmin,
      people.communityAdmin,
      people.hostAdmin,
    ]) {
      expectError(await complete(caller, course.courseId, lesson(course, 'one')), 403, 'rest_forbidden');
    }
    const student = course.students[2] as TestUser;
    expect((await complete(student, course.courseId, lesson(course, 'one'))).status).toBe(200);
  });

  it('anonymous callers are 401', async () => {
    expectError(await complete(undefined, course.courseId, lesson(course, 'one')), 401, 'rest_not_logged_in');
  });
});
