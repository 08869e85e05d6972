import { waitForNotificationCount } from '../support/notifications.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { addReaction } from '../../shared/domain/feeds/reaction-repository.ts';
import { findSpaceStats } from '../../shared/domain/spaces/index.ts';
import { api, type TestUser } from '../support/api.ts';
import {
  courseComments,
  createPeople,
  importCourse,
  lessonComments,
  type People,
  postLessonComment,
  type TestCourse,
} from '../support/course-admin.ts';
import { expectError, ISO } from '../support/feeds.ts';

/**
 * `GET /admin/courses/{course_id}/comments` and `GET|POST /courses/{course_id}/lessons/{lesson_id}/comments`
 * (issue 12, items 3 and 4). Content moderation is off here (its default); courses-moderation.settings.test.ts
 * turns it on.
 */

let people: People;
let course: TestCourse;
beforeAll(async () => {
  people = await createPeople();
  course = await importCourse({
    comments: (students) => [
      {
        ref: 'old',
        user: students[0]!.username,
        lesson: 'one',
        message: 'First **thoughts**',
        created_at: '2026-01-01T10:00:00Z',
      },
      {
        ref: 'mid',
        user: students[1]!.username,
        lesson: 'two',
        message: 'A question',
        created_at: '2026-01-02T10:00:00Z',
      },
      {
        ref: 'held',
        user: students[1]!.username,
        lesson: 'one',
        message: 'Waiting for review',
        status: 'pending',
        created_at: '2026-01-03T10:00:00Z',
      },
    ],
  });
});

const lesson = (ref: string) => course.lessons[ref] as number;

describe('the course comment list (administration)', () => {
  it('lists published comments on every lesson, newest first, in paginator B with lesson, author and liked', async () => {
    const posted = await postLessonComment(course.students[0], course.courseId, lesson('two'), {
      message: 'Newest',
    });
    expect(posted.status, posted.text).toBe(201);
    const newest = posted.body.comment.id as number;
    await addReaction(
      {
        object_type: 'comment',
        object_id: course.comments.mid as number,
        user_id: course.courseAdmin.id,
        type: 'like',
        created_at: new Date().toISOString(),
      },
      lesson('two'),
    );

    const response = await courseComments(course.courseAdmin, course.courseId);
    expect(response.status, response.text).toBe(200);
    const page = response.body.comments;
    expect(page).toMatchObject({ current_page: 1, per_page: 20, total: 3, from: 1, to: 3, last_page: 1 });
    expect(page.next_page_url).toBeNull();
    expect(page.data.map((row: { id: number }) => row.id)).toEqual([
      newest,
      course.comments.mid,
      course.comments.old,
    ]);
    const [first, second, third] = page.data;
    expect(first).toMatchObject({
      post_id: lesson('two'),
      course_id: course.courseId,
      status: 'published',
      liked: false,
      lesson: { id: lesson('two'), title: expect.stringContaining('Lesson two'), slug: expect.any(String) },
      xprofile: { user_id: course.students[0]!.id, username: course.students[0]!.username },
    });
    expect(Object.keys(first.lesson).sort()).toEqual(['id', 'slug', 'title']);
    expect(second.liked).toBe(true);
    expect(third.message_rendered).toContain('<strong>thoughts</strong>');
    expect(third.created_at).toMatch(ISO);
    // No e-mail address anywhere in the rows.
    expect(response.text).not.toContain('@example.com');
    expect(response.text).not.toMatch(/email/i);
  });

  it('pages with an opaque cursor in next_page_url that leads to the next page', async () => {
    const first = await courseComments(course.courseAdmin, course.courseId, { per_page: 2 });
    expect(first.body.comments).toMatchObject({ total: 3, last_page: 2, to: 2 });
    const next = first.body.comments.next_page_url as string;
    expect(next).toContain('cursor=');
    const second = await api<{ comments: { data: { id: number }[]; current_page: number } }>('GET', next, {
      as: course.courseAdmin,
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body.comments.current_page).toBe(2);
    expect(second.body.comments.data.map((row) => row.id)).toEqual([course.comments.old]);
    const past = await courseComments(course.courseAdmin, course.courseId, { page: 9 });
    expect(past.body.comments.data).toEqual([]);
    expectError(
      await courseComments(course.courseAdmin, course.courseId, { per_page: 101 }),
      400,
      'rest_invalid_param',
    );
  });

  it('hides pending comments while content moderation is off, whoever asks', async () => {
    const response = await courseComments(people.hostAdmin, course.courseId, { per_page: 100 });
    const ids = response.body.comments.data.map((row: { id: number }) => row.id);
    expect(ids).not.toContain(course.comments.held);
    expect(response.body.comments.total).toBe(ids.length);
  });

  it('follows the permission matrix (course admin, community admin, host administrator only)', async () => {
    for (const caller of [course.courseAdmin, people.communityAdmin, people.hostAdmin]) {
      expect((await courseComments(caller, course.courseId)).status).toBe(200);
    }
    for (const caller of [people.member, people.spaceModerator, people.spaceAdmin, course.students[0]!]) {
      expectError(await courseComments(caller, course.courseId), 403, 'rest_forbidden');
    }
    expectError(await courseComments(undefined, course.courseId), 401, 'rest_not_logged_in');
    expectError(await courseComments(people.hostAdmin, 999_999_999), 404, 'not_found');
  });
});

describe('lesson comments (students and course admins)', () => {
  it('posts a comment that lists on the lesson, oldest first, and counts on the course', async () => {
    const own = await importCourse();
    const before = await findSpaceStats(own.courseId);
    const posted = await postLessonComment(own.students[0], own.courseId, own.lessons.one as number, {
      message: 'Hello @nobody_here',
    });
    expect(posted.status, posted.text).toBe(201);
    expect(posted.body).toMatchObject({
      message: 'Comment has been added.',
      comment: { post_id: own.lessons.one, parent_id: null, status: 'published', liked: false },
    });
    const reply = await postLessonComment(own.courseAdmin, own.courseId, own.lessons.one as number, {
      message: 'Welcome',
      parent_id: posted.body.comment.id,
    });
    expect(reply.status, reply.text).toBe(201);
    const list = await lessonComments(own.students[1], own.courseId, own.lessons.one as number);
    expect(list.status, list.text).toBe(200);
    expect(list.body.comments.total).toBe(2);
    expect(list.body.comments.data.map((row: { id: number }) => row.id)).toEqual([
      posted.body.comment.id,
      reply.body.comment.id,
    ]);
    const after = await findSpaceStats(own.courseId);
    expect((after.lesson_comments_published ?? 0) - (before.lesson_comments_published ?? 0)).toBe(2);
    const admin = await courseComments(own.courseAdmin, own.courseId);
    expect(admin.body.comments.total).toBe(2);
  });

  it('notifies the replied-to author (new_reply) and mentioned participants (mention), not outsiders', async () => {
    const own = await importCourse({ students: 3 });
    const [author, replier, mentioned] = own.students as [TestUser, TestUser, TestUser];
    const first = await postLessonComment(author, own.courseId, own.lessons.one as number, { message: 'Q?' });
    const reply = await postLessonComment(replier, own.courseId, own.lessons.one as number, {
      message: `Answer, see @${mentioned.username} and @${people.member.username}`,
      parent_id: first.body.comment.id,
    });
    expect(reply.status, reply.text).toBe(201);
    // Stored by the notify worker a moment after the request: at least `atLeast` of them.
    const typesOf = (user: TestUser, atLeast = 0) => waitForNotificationCount(user, atLeast);
    expect(await typesOf(author, 1)).toEqual([
      expect.objectContaining({
        type: 'new_reply',
        object_id: reply.body.comment.id,
        action_url: `/courses/${own.courseId}/lessons/${own.lessons.one}?comment_id=${reply.body.comment.id}`,
      }),
    ]);
    expect((await typesOf(mentioned, 1)).map((n) => n.type)).toEqual(['mention']);
    expect(await typesOf(people.member)).toEqual([]);
    expect(await typesOf(replier)).toEqual([]);
  });

  it('refuses a reply to a comment of another lesson, an empty message and unknown fields (400)', async () => {
    const student = course.students[0] as TestUser;
    expectError(
      await postLessonComment(student, course.courseId, lesson('two'), {
        message: 'x',
        parent_id: course.comments.old,
      }),
      400,
      'rest_invalid_param',
    );
    expectError(
      await postLessonComment(student, course.courseId, lesson('two'), { message: '  ' }),
      400,
      'rest_invalid_param',
    );
    expectError(
      await postLessonComment(student, course.courseId, lesson('two'), {}),
      400,
      'rest_missing_callback_param',
    );
    expectError(
      await postLessonComment(student, course.courseId, lesson('two'), { message: 'x', extra: 1 }),
      400,
      'rest_invalid_param',
    );
  });

  it('refuses comments when the course disables them (403)', async () => {
    const own = await importCourse({ settings: { disable_comments: 'yes' } });
    expectError(
      await postLessonComment(own.students[0], own.courseId, own.lessons.one as number, { message: 'Hi' }),
      403,
      'rest_forbidden',
    );
  });

  it('drafts and lessons of other courses are 404 not_found', async () => {
    const student = course.students[0] as TestUser;
    expectError(await lessonComments(student, course.courseId, lesson('draft')), 404, 'not_found');
    const other = await importCourse({ students: 0 });
    expectError(
      await lessonComments(student, course.courseId, other.lessons.one as number),
      404,
      'not_found',
    );
  });

  it('follows the permission matrix: students and course admins (community admins and host administrators act as such)', async () => {
    for (const caller of [course.students[1]!, course.courseAdmin, people.communityAdmin, people.hostAdmin]) {
      expect((await lessonComments(caller, course.courseId, lesson('one'))).status).toBe(200);
      const posted = await postLessonComment(caller, course.courseId, lesson('one'), { message: 'ok' });
      expect(posted.status, posted.text).toBe(201);
    }
    for (const caller of [people.member, people.spaceModerator, people.spaceAdmin]) {
      expectError(await lessonComments(caller, course.courseId, lesson('one')), 403, 'rest_forbidden');
      expectError(
        await postLessonComment(caller, course.courseId, lesson('one'), { message: 'no' }),
        403,
        'rest_forbidden',
      );
    }
    expectError(await lessonComments(undefined, course.courseId, lesson('one')), 401, 'rest_not_logged_in');
    expectError(
      await postLessonComment(undefined, course.courseId, lesson('one'), { message: 'no' }),
      401,
      'rest_not_logged_in',
    );
  });
});
