import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSettings, putSetting } from '../../shared/domain/settings/index.ts';
import type { TestUser } from '../support/api.ts';
import { cli, cliJson } from '../support/cli.ts';
import {
  courseComments,
  createPeople,
  importCourse,
  lessonComments,
  type People,
  postLessonComment,
  type TestCourse,
} from '../support/course-admin.ts';

/**
 * Lesson comments under content moderation (`features` setting `content_moderation`): pending comments appear in
 * the course comment list only while moderation is on, and then only to those who moderate the course; comments of
 * students wait as `pending`, a course admin's are published. Runs in the `api-settings` project (alone, after the
 * other files) and restores the default.
 */

let people: People;
let course: TestCourse;
beforeAll(async () => {
  people = await createPeople();
  course = await importCourse({
    comments: (students) => [
      { ref: 'shown', user: students[0]!.username, lesson: 'one', message: 'Published' },
      { ref: 'held', user: students[1]!.username, lesson: 'two', message: 'Pending', status: 'pending' },
    ],
  });
  // The operator's own command turns it on (issue 21 item 14), as an operator would.
  expect(cliJson(await cli('settings:set', 'features.content_moderation', 'yes'))).toEqual({
    key: 'features.content_moderation',
    value: 'yes',
  });
});
afterAll(async () => {
  await putSetting('features', 'content_moderation', 'no');
});

const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

describe('issue 21 item 14: settings:set sets features.content_moderation', () => {
  it('stores the switch the courses domain reads, refuses other values, and lists the key as known', async () => {
    expect(await getSettings('features', {})).toMatchObject({ content_moderation: 'yes' });
    const invalid = await cli('settings:set', 'features.content_moderation', 'maybe');
    expect(invalid).toMatchObject({ code: 1, stdout: '' });
    const unknown = await cli('settings:set', 'features.nope', 'yes');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('features.content_moderation');
    expect(await getSettings('features', {})).toMatchObject({ content_moderation: 'yes' });
  });
});

describe('content moderation on', () => {
  it('lists pending comments to the course’s moderators, with a total that counts them', async () => {
    for (const caller of [course.courseAdmin, people.communityAdmin, people.hostAdmin]) {
      const response = await courseComments(caller, course.courseId);
      expect(response.status, response.text).toBe(200);
      expect(response.body.comments.total).toBe(2);
      expect(ids(response.body.comments.data)).toEqual([course.comments.held, course.comments.shown]);
      expect(response.body.comments.data[0].status).toBe('pending');
    }
  });

  it('stores a student’s new comment as pending, hidden from the lesson list; a course admin’s is published', async () => {
    const student = course.students[0] as TestUser;
    const held = await postLessonComment(student, course.courseId, course.lessons.one as number, {
      message: 'Please review',
    });
    expect(held.status, held.text).toBe(201);
    expect(held.body).toMatchObject({
      message: 'Comment has been submitted for review.',
      comment: { status: 'pending' },
    });
    const shown = await postLessonComment(course.courseAdmin, course.courseId, course.lessons.one as number, {
      message: 'Staff note',
    });
    expect(shown.body.comment.status).toBe('published');

    const lesson = await lessonComments(student, course.courseId, course.lessons.one as number);
    expect(ids(lesson.body.comments.data)).toEqual([course.comments.shown, shown.body.comment.id]);
    expect(lesson.body.comments.total).toBe(2);

    const admin = await courseComments(course.courseAdmin, course.courseId);
    expect(admin.body.comments.total).toBe(4);
    expect(ids(admin.body.comments.data)).toContain(held.body.comment.id);
  });

  it('hides pending comments again once moderation is off', async () => {
    await putSetting('features', 'content_moderation', 'no');
    const response = await courseComments(course.courseAdmin, course.courseId);
    expect(response.body.comments.total).toBe(2);
    expect(response.body.comments.data.every((row: { status: string }) => row.status === 'published')).toBe(
      true,
    );
  });
});
