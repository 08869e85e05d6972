import { randomBytes } from 'node:crypto';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { type ApiResponse, api, createTestUser, type TestUser } from './api.ts';
import { createSpace } from './feeds.ts';

/**
 * Fixtures of the course administration and lesson progress tests: a course imported through the operator import
 * with two plain published lessons (`one`, `two`), a draft and, on request, a quiz lesson, its admin and students;
 * and the people of the permission matrix (a plain member, a moderator and an admin of another space, a community
 * admin, a host administrator). Every call makes its own users and slugs, so files run in parallel.
 */

// biome-ignore lint/suspicious/noExplicitAny: tests walk JSON bodies field by field.
export type Body = Record<string, any>;

export interface People {
  readonly member: TestUser;
  readonly spaceModerator: TestUser;
  readonly spaceAdmin: TestUser;
  readonly communityAdmin: TestUser;
  readonly hostAdmin: TestUser;
}

/** The matrix's callers outside any course: a member, another space's moderator and admin, the two admin roles. */
export async function createPeople(): Promise<People> {
  const [member, spaceModerator, spaceAdmin, communityAdmin, hostAdmin] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'admin' }),
    createTestUser({ hostRole: 'administrator' }),
  ]);
  await createSpace({
    members: [
      [member, 'member'],
      [spaceModerator, 'moderator'],
      [spaceAdmin, 'admin'],
    ],
  });
  return { member, spaceModerator, spaceAdmin, communityAdmin, hostAdmin };
}

export interface TestCourse {
  readonly courseId: number;
  readonly lessons: Readonly<Record<string, number>>;
  readonly comments: Readonly<Record<string, number>>;
  readonly courseAdmin: TestUser;
  readonly students: readonly TestUser[];
  readonly slug: string;
}

export async function importCourse(
  options: {
    students?: number;
    sequential?: boolean;
    privacy?: 'public' | 'private' | 'secret';
    withQuiz?: boolean;
    settings?: Record<string, string>;
    comments?: (students: readonly TestUser[]) => unknown[];
    completions?: (students: readonly TestUser[]) => unknown[];
  } = {},
): Promise<TestCourse> {
  const tag = randomBytes(4).toString('hex');
  const [courseAdmin, ...students] = await Promise.all([
    createTestUser({ displayName: `Course Admin ${tag}` }),
    ...Array.from({ length: options.students ?? 2 }, (_, i) =>
      createTestUser({ displayName: `Student ${i} ${tag}` }),
    ),
  ]);
  const lesson = (ref: string, extra: Record<string, unknown> = {}) => ({
    ref,
    title: `Lesson ${ref} ${tag}`,
    slug: `lesson-${ref}-${tag}`,
    status: 'published',
    ...extra,
  });
  const slug = `course-${tag}`;
  const output = await runImport({
    courses: [
      {
        ref: 'course',
        title: `Course ${tag}`,
        slug,
        description: 'About **this** course.',
        sequential_lesson_order: options.sequential ?? false,
        ...(options.privacy ? { privacy: options.privacy } : {}),
        settings: options.settings ?? {},
        admins: [courseAdmin.username],
        students: students.map((user) => user.username),
        lessons: [
          lesson('one'),
          lesson('two'),
          lesson('draft', { status: 'draft' }),
          ...(options.withQuiz
            ? [
                lesson('quiz', {
                  quiz: {
                    questions: [
                      {
                        id: 'q1',
                        type: 'multiple_choice',
                        question: '2+2?',
                        options: [
                          { id: 'a', text: '4', is_correct: true },
                          { id: 'b', text: '5', is_correct: false },
                        ],
                      },
                    ],
                  },
                }),
              ]
            : []),
        ],
        comments: options.comments?.(students) ?? [],
        completions: options.completions?.(students) ?? [],
      },
    ],
  });
  const course = output.courses.course as unknown as {
    id: number;
    lessons: Record<string, number>;
    comments?: Record<string, number>;
  };
  return {
    courseId: course.id,
    lessons: course.lessons,
    comments: course.comments ?? {},
    courseAdmin,
    students,
    slug,
  };
}

export const adminCourse = (as: TestUser | undefined, courseId: number | string) =>
  api<Body>('GET', `/admin/courses/${courseId}`, as ? { as } : {});

export const courseComments = (
  as: TestUser | undefined,
  courseId: number | string,
  query: Record<string, string | number> = {},
) => api<Body>('GET', `/admin/courses/${courseId}/comments`, { ...(as ? { as } : {}), query });

export const complete = (
  as: TestUser | undefined,
  courseId: number,
  lessonId: number,
  state: unknown = 'completed',
): Promise<ApiResponse<Body>> =>
  api<Body>('PUT', `/courses/${courseId}/lessons/${lessonId}/completion`, {
    ...(as ? { as } : {}),
    body: { state },
  });

export const lessonComments = (
  as: TestUser | undefined,
  courseId: number,
  lessonId: number,
  query: Record<string, string | number> = {},
) => api<Body>('GET', `/courses/${courseId}/lessons/${lessonId}/comments`, { ...(as ? { as } : {}), query });

export const postLessonComment = (
  as: TestUser | undefined,
  courseId: number,
  lessonId: number,
  body: unknown,
) => api<Body>('POST', `/courses/${courseId}/lessons/${lessonId}/comments`, { ...(as ? { as } : {}), body });

/**
 * A user who administers one course (space role `admin` in a course, imported) and holds no global role: the
 * "course admin" row of the permission matrices of routes that are not about courses.
 */
export async function createCourseOwnAdmin(): Promise<TestUser> {
  const admin = await createTestUser();
  const tag = randomBytes(4).toString('hex');
  await runImport({
    courses: [{ ref: 'c', title: `Course ${tag}`, slug: `course-${tag}`, admins: [admin.username] }],
  });
  return admin;
}
