import type { SequenceName } from '../../../db/keys/sequences.ts';
import { type CourseSettings, DEFAULT_COURSE_SETTINGS, EMPTY_COURSE_STATS } from '../../courses/index.ts';
import type { SpaceItem } from '../../spaces/index.ts';
import { itemName } from '../import-error.ts';
import type { ImportCourse } from '../import-schema.ts';
import { courseCommentsPart } from './course-comments.ts';
import { completionsPart } from './course-completions.ts';
import { lessonsPart } from './course-lessons.ts';
import type { BuiltCourse } from './course-part.ts';
import { type BuildContext, defineSection } from './section.ts';
import { buildSpaceLike, type ListedMember, spaceFields, spaceLikeChecks } from './space-common.ts';

/**
 * The lists inside each course, in processing order (course-part.ts): a new one is a file and an entry here. The
 * completions part comes after the lessons (it needs their ids) and builds the student memberships.
 */
const COURSE_PARTS = [lessonsPart, courseCommentsPart, completionsPart] as const;

const listed = (course: ImportCourse, where: string): ListedMember[] =>
  [
    ...course.admins.map((user, m) => ({ user, role: 'admin' as const, entry: `${where}: admins[${m}]` })),
    ...course.students.map((user, m) => ({
      user,
      role: 'student' as const,
      entry: `${where}: students[${m}]`,
    })),
  ].map((member) => ({ ...member, reference: member.entry }));

/**
 * `courses`: each course (a space of type `course`, `space` ids after the file's spaces) with its slug guard, its
 * stats item (space and course counters from 0) and one unit per admin (space-common.ts), then its parts
 * (`lessons`, `comments`, and `completions`, which also builds each student's unit). The output lists each part's
 * ids under its name.
 */
export const coursesSection = defineSection({
  name: 'courses',

  ...spaceLikeChecks('courses', listed, (course, where, scope) => {
    for (const part of COURSE_PARTS) part.resolve(course, where, scope);
  }),

  ids(courses) {
    const counts: Partial<Record<SequenceName, number>> = { space: courses.length };
    for (const course of courses) {
      for (const part of COURSE_PARTS) {
        for (const [name, count] of Object.entries(part.ids(course)))
          counts[name as SequenceName] = (counts[name as SequenceName] ?? 0) + count;
      }
    }
    return counts;
  },

  build(courses, context) {
    const output: Record<string, { id: number; lessons: Record<string, number> }> = {};
    courses.forEach((course, i) => {
      const id = context.takeId('space');
      context.setId('course', course.ref, id);
      const built: BuiltCourse = {
        ref: course.ref,
        item: courseItem(course, id, i, context),
        where: itemName('courses', i, course.ref),
        students: course.students,
      };
      // Admins here; students with their completions in the completions part, once the lessons have ids.
      buildSpaceLike(
        context,
        built.where,
        built.item,
        { ...EMPTY_COURSE_STATS },
        listed(course, built.where).filter((member) => member.role === 'admin'),
      );
      const parts: Record<string, Record<string, number>> = {};
      for (const part of COURSE_PARTS) {
        const ids = part.build(course, built, context);
        if (ids) parts[part.name] = ids;
      }
      output[course.ref] = { id, lessons: {}, ...parts };
    });
    return output;
  },
});

function courseItem(course: ImportCourse, id: number, index: number, context: BuildContext): SpaceItem {
  const settings: CourseSettings = {
    ...DEFAULT_COURSE_SETTINGS,
    ...(course.settings as Partial<CourseSettings>),
  };
  if (course.course_type) settings.course_type = course.course_type;
  if (course.sequential_lesson_order !== undefined)
    settings.sequential_lesson_order = course.sequential_lesson_order ? 'yes' : 'no';
  return {
    ...spaceFields(course, id, index, course.admins[0], context),
    type: 'course',
    settings: { ...settings },
    course_type: settings.course_type,
    lockscreen: [],
    category_ids: [],
  };
}
