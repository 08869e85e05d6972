import { ImportError, itemName } from '../import-error.ts';
import { lessonRef } from '../reference-scope.ts';
import { defineCoursePart } from './course-part.ts';
import { buildMembership } from './space-common.ts';

/**
 * A course's `completions` (`{ user, lesson }`: a student of this course completed a published lesson of it) and,
 * with them, the course's student memberships: each student's unit writes the membership with its
 * `completed_lessons` set and `completed_count`, and counts on the course what a completion through the API counts
 * (lesson-completion.ts): `students_count`, `total_completions`, and `completed_students` when the student has
 * every published lesson. A completion listed twice, of a lesson that is a draft, or by someone who is not one of
 * the course's `students` fails the import.
 */
export const completionsPart = defineCoursePart({
  name: 'completions',

  resolve(completions, course, where, scope) {
    const students = new Set(course.students);
    completions.forEach((completion, j) => {
      const entry = `${where}: completions[${j}]`;
      if (!students.has(completion.user))
        throw new ImportError(`${entry}: user: "${completion.user}" is not one of the course's students`);
      const lesson = course.lessons.find((candidate) => candidate.ref === completion.lesson);
      if (!lesson || scope.indexOf('lesson', lessonRef(course.ref, completion.lesson)) === undefined)
        throw new ImportError(`${entry}: lesson: unknown lesson ref "${completion.lesson}"`);
      if (lesson.status !== 'published')
        throw new ImportError(`${entry}: lesson: "${completion.lesson}" is not published`);
      scope.unique(
        `completion:${course.ref}`,
        `${completion.user} / ${completion.lesson}`,
        entry,
        'completion',
      );
    });
  },

  build(completions, course, context) {
    const published = [...context.posts.values()]
      .filter((post) => post.course_id === course.item.id && post.status === 'published')
      .map((post) => post.id);
    course.students.forEach((student, m) => {
      const done = new Set(
        completions
          .filter((completion) => completion.user === student)
          .map((completion) => context.idOf('lesson', lessonRef(course.ref, completion.lesson))),
      );
      const completesCourse = published.length > 0 && published.every((id) => done.has(id));
      buildMembership(
        context,
        itemName(`${course.where}: students`, m, undefined),
        course.item,
        { user: student, role: 'student' },
        {
          attributes: {
            completed_count: done.size,
            ...(done.size > 0 ? { completed_lessons: done } : {}),
          },
          counts: {
            ...(done.size > 0 ? { total_completions: done.size } : {}),
            ...(completesCourse ? { completed_students: 1 } : {}),
          },
        },
      );
    });
    return undefined;
  },
});
