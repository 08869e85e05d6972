import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COURSE_SETTINGS } from '../../shared/domain/courses/index.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import {
  adminCourse,
  type Body,
  complete,
  courseComments,
  lessonComments,
  postLessonComment,
  createPeople,
  importCourse,
  type People,
  type TestCourse,
} from '../support/course-admin.ts';
import { createSpace, expectError } from '../support/feeds.ts';
import { adminList, expectBareError } from '../support/quiz-course.ts';
import { SQL_DATE_TIME } from '../support/topics.ts';

/** `GET /admin/courses/{course_id}` (contract "Course administration"; issue 12, item 3). */

let people: People;
let course: TestCourse;
beforeAll(async () => {
  [people, course] = await Promise.all([createPeople(), importCourse()]);
});

describe('the administrative form', () => {
  it('has every contract field, with its type, and every course settings key', async () => {
    const response = await adminCourse(course.courseAdmin, course.courseId);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const c = response.body.course;
    expect(Object.keys(c).sort()).toEqual(
      [
        'id',
        'title',
        'slug',
        'description',
        'logo',
        'cover_photo',
        'created_by',
        'parent_id',
        'privacy',
        'serial',
        'status',
        'type',
        'course_type',
        'created_at',
        'updated_at',
        'owner',
        'category_ids',
        'lockscreen',
        'settings',
        'students_count',
        'completed_students',
        'overAllProgress',
      ].sort(),
    );
    expect(c).toMatchObject({
      id: course.courseId,
      slug: course.slug,
      type: 'course',
      status: 'published',
      privacy: 'public',
      parent_id: null,
      created_by: course.courseAdmin.id,
      course_type: 'self_paced',
      category_ids: [],
      lockscreen: [],
      students_count: 2,
      completed_students: 0,
      overAllProgress: 0,
    });
    expect(c.created_at).toMatch(SQL_DATE_TIME);
    expect(c.updated_at).toMatch(SQL_DATE_TIME);
    expect(Object.keys(c.settings).sort()).toEqual(Object.keys(DEFAULT_COURSE_SETTINGS).sort());
    expect(c.settings.sequential_lesson_order).toBe('no');
    expect(Number.isInteger(c.serial)).toBe(true);
  });

  it('issue 21 item 16: shows the owner as a host user summary, with its e-mail to everyone who administers the course', async () => {
    const own = await adminCourse(course.courseAdmin, course.courseId);
    expect(Object.keys(own.body.course.owner).sort()).toEqual(
      [
        'ID',
        'display_name',
        'photo',
        'user_email',
        'user_login',
        'user_nicename',
        'user_registered',
        'user_status',
        'user_url',
      ].sort(),
    );
    expect(own.body.course.owner).toMatchObject({
      ID: course.courseAdmin.id,
      user_login: course.courseAdmin.username,
      user_email: `${course.courseAdmin.username}@example.com`,
    });
    expect(own.body.course.owner.user_registered).toMatch(SQL_DATE_TIME);
    const globalCourseAdmin = await createTestUser({ communityRole: 'course_admin' });
    for (const caller of [people.communityAdmin, people.hostAdmin, globalCourseAdmin]) {
      const response = await adminCourse(caller, course.courseId);
      expect(response.body.course.owner.user_email).toBe(`${course.courseAdmin.username}@example.com`);
    }
  });

  it('leaves completed_students and overAllProgress out while the course has no students', async () => {
    const empty = await importCourse({ students: 0 });
    const response = await adminCourse(empty.courseAdmin, empty.courseId);
    expect(response.status, response.text).toBe(200);
    expect(response.body.course.students_count).toBe(0);
    expect(response.body.course).not.toHaveProperty('completed_students');
    expect(response.body.course).not.toHaveProperty('overAllProgress');
  });

  it('unknown ids and spaces that are not courses are 404 not_found; a malformed id 400', async () => {
    expectError(await adminCourse(people.hostAdmin, 999_999_999), 404, 'not_found');
    const spaceId = await createSpace();
    expectError(await adminCourse(people.hostAdmin, spaceId), 404, 'not_found');
    expectError(await adminCourse(people.hostAdmin, 'abc'), 400, 'rest_invalid_param');
  });
});

describe('progress figures follow lesson completions made through the API', () => {
  it('two students, one completes both lessons, one completes one: completed_students 1, overAllProgress 75', async () => {
    const own = await importCourse();
    const [first, second] = own.students as [TestUser, TestUser];
    for (const [student, lesson] of [
      [first, own.lessons.one],
      [first, own.lessons.two],
      [second, own.lessons.one],
    ] as const) {
      const response = await complete(student, own.courseId, lesson as number);
      expect(response.status, response.text).toBe(200);
    }
    const response = await adminCourse(own.courseAdmin, own.courseId);
    expect(response.body.course).toMatchObject({
      students_count: 2,
      completed_students: 1,
      overAllProgress: 75,
    });

    // Taking a lesson back moves the figures back.
    await complete(first, own.courseId, own.lessons.two as number, 'incomplete');
    const after = await adminCourse(own.courseAdmin, own.courseId);
    expect(after.body.course).toMatchObject({ completed_students: 0, overAllProgress: 50 });
  });

  it('counts imported completions the same way', async () => {
    const own = await importCourse({
      students: 3,
      completions: (students) => [
        { user: students[0]!.username, lesson: 'one' },
        { user: students[0]!.username, lesson: 'two' },
        { user: students[1]!.username, lesson: 'two' },
      ],
    });
    const response = await adminCourse(own.courseAdmin, own.courseId);
    // 3 of 3 × 2 possible completions: 50 %.
    expect(response.body.course).toMatchObject({
      students_count: 3,
      completed_students: 1,
      overAllProgress: 50,
    });
    // An imported completion is a completion: completing it again changes nothing.
    const again = await complete(own.students[0], own.courseId, own.lessons.two as number);
    expect(again.body.data).toMatchObject({ course_completed: true, progress: 100 });
    expect((await adminCourse(own.courseAdmin, own.courseId)).body.course.overAllProgress).toBe(50);
  });
});

describe('permission matrix', () => {
  it('course admins of the course, community admins and host administrators read it', async () => {
    for (const caller of [course.courseAdmin, people.communityAdmin, people.hostAdmin]) {
      const response = await adminCourse(caller, course.courseId);
      expect(response.status, response.text).toBe(200);
    }
  });

  it('members, space moderators and admins of other spaces, and the course’s students are 403', async () => {
    for (const caller of [
      people.member,
      people.spaceModerator,
      people.spaceAdmin,
      course.students[0] as TestUser,
    ]) {
      expectError(await adminCourse(caller, course.courseId), 403, 'rest_forbidden');
    }
  });

  it('holders of the global course_admin role act as admins of every course', async () => {
    const globalCourseAdmin = await createTestUser({ communityRole: 'course_admin' });
    expect((await adminCourse(globalCourseAdmin, course.courseId)).status).toBe(200);
  });

  it('an admin of another course is 403 here', async () => {
    const other = await importCourse({ students: 0 });
    expectError(await adminCourse(other.courseAdmin, course.courseId), 403, 'rest_forbidden');
  });

  it('issue 21 item 6: a secret course answers callers not in it as a course that does not exist (404 not_found)', async () => {
    const secret = await importCourse({ privacy: 'secret', withQuiz: true });
    const lesson = secret.lessons.one as number;
    const quizLesson = secret.lessons.quiz as number;
    const missing = 2 ** 40;
    const outsider = people.member;
    const routes = (courseId: number, lessonId: number) => [
      adminCourse(outsider, courseId),
      courseComments(outsider, courseId),
      lessonComments(outsider, courseId, lessonId),
      postLessonComment(outsider, courseId, lessonId, { message: 'Hello' }),
      complete(outsider, courseId, lessonId),
    ];
    const hidden = await Promise.all(routes(secret.courseId, lesson));
    const absent = await Promise.all(routes(missing, lesson));
    for (const [i, response] of hidden.entries()) {
      expectError(response, 404, 'not_found');
      expect(response.body).toEqual((absent[i] as typeof response).body);
    }
    // The quiz routes answer quiz_not_found for both.
    for (const courseId of [secret.courseId, missing]) {
      const submitted = await api<Body>('POST', `/courses/${courseId}/lessons/${quizLesson}/quiz/submit`, {
        as: outsider,
        body: { answers: { q1: 'a' } },
      });
      expectBareError(submitted, 404, 'quiz_not_found');
      expectBareError(await adminList(outsider, courseId), 404, 'quiz_not_found');
    }
    // Those in it (its admin, its students) and those who administer every course still get their answers.
    expect((await adminCourse(secret.courseAdmin, secret.courseId)).status).toBe(200);
    expect((await adminCourse(people.communityAdmin, secret.courseId)).status).toBe(200);
    expectError(await adminCourse(secret.students[0], secret.courseId), 403, 'rest_forbidden');
    expect((await lessonComments(secret.students[0], secret.courseId, lesson)).status).toBe(200);
    // A private course still answers 403 (its existence is public).
    const privateCourse = await importCourse({ privacy: 'private', students: 0 });
    expectError(await adminCourse(outsider, privateCourse.courseId), 403, 'rest_forbidden');
  });

  it('anonymous callers are 401', async () => {
    expectError(await adminCourse(undefined, course.courseId), 401, 'rest_not_logged_in');
  });
});
