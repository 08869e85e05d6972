import { spaceSlugGuardKey, spaceStatsKey } from '../../../db/keys/spaces.ts';
import {
  type CourseSettings,
  DEFAULT_COURSE_SETTINGS,
  EMPTY_COURSE_STATS,
  storedLessonOrderRow,
  storedQuiz,
} from '../../courses/index.ts';
import { type PostItem, storedPost } from '../../feeds/index.ts';
import {
  type SpaceItem,
  spaceVisibility,
  storedSpace,
  storedSpaceSlugGuard,
  storedSpaceStats,
} from '../../spaces/index.ts';
import { renderMarkdown } from '../../text/index.ts';
import { itemName } from '../import-error.ts';
import type { ImportCourse, ImportLesson } from '../import-schema.ts';
import { lessonRef, ReferenceScope } from '../reference-scope.ts';
import { buildMembers } from './memberships.ts';
import { type BuildContext, defineSection } from './section.ts';
import { SPACE_COUNTERS } from './spaces.ts';

const COURSE_COUNTERS = [...SPACE_COUNTERS, ...Object.keys(EMPTY_COURSE_STATS)];

/**
 * `courses`: each course (a space of type `course`) with its slug guard, its stats item (space and course counters
 * from 0), one unit per admin and student, and one per lesson (the lesson post, its order row, its quiz, counted
 * on the course's `published_lessons_count`). Courses take `space` ids after the file's spaces; lessons take `post`
 * ids before the file's feeds.
 */
export const coursesSection = defineSection({
  name: 'courses',

  resolve(courses, scope) {
    courses.forEach((course, i) => {
      const where = itemName('courses', i, course.ref);
      scope.define('course', course.ref, i, where);
      scope.unique('space-slug', course.slug, where, 'slug');
      if (course.created_by !== undefined) scope.user(course.created_by, `${where}: created_by`);
      const enrolled = [
        ...course.admins.map((user, m) => ({ user, where: `${where}: admins[${m}]` })),
        ...course.students.map((user, m) => ({ user, where: `${where}: students[${m}]` })),
      ];
      for (const member of enrolled) scope.user(member.user, member.where);
      ReferenceScope.distinct(
        enrolled.map((member) => member.user),
        (index) => enrolled[index]!.where,
      );
      course.lessons.forEach((lesson, j) => {
        scope.define(
          'lesson',
          lessonRef(course.ref, lesson.ref),
          j,
          itemName(`${where}: lessons`, j, lesson.ref),
          lesson.ref,
        );
        scope.unique(`lesson-slug:${course.ref}`, lesson.slug, `${where}: lessons[${j}]`, 'slug');
      });
    });
  },

  mustBeFree: (courses) =>
    courses.map((course, i) => ({
      key: spaceSlugGuardKey(course.slug),
      message: `${itemName('courses', i, course.ref)}: slug "${course.slug}" is already taken`,
    })),

  ids: (courses) => ({
    space: courses.length,
    post: courses.reduce((sum, course) => sum + course.lessons.length, 0),
  }),

  build(courses, context) {
    const output: Record<string, { id: number; lessons: Record<string, number> }> = {};
    courses.forEach((course, i) => {
      const id = context.takeId('space');
      context.setId('course', course.ref, id);
      const label = itemName('courses', i, course.ref);
      const item = courseItem(course, id, i, context);
      context.spaces.set(id, item);
      context.plan.guard(storedSpaceSlugGuard(course.slug, id), `${label}: slug "${course.slug}"`);
      context.plan.unit(label, [
        storedSpace(item),
        {
          item: storedSpaceStats(id, { members_count: 0, posts_count: 0, ...EMPTY_COURSE_STATS }),
          unchanged: COURSE_COUNTERS,
        },
      ]);
      buildMembers(
        context,
        id,
        [
          ...course.admins.map((user) => ({ user, role: 'admin' as const })),
          ...course.students.map((user) => ({ user, role: 'student' as const })),
        ],
        item.created_at,
        label,
      );
      const lessons: Record<string, number> = {};
      course.lessons.forEach((lesson, position) => {
        lessons[lesson.ref] = buildLesson(
          context,
          item,
          lesson,
          position + 1,
          `${label}: lessons[${position}]`,
        );
        context.setId('lesson', lessonRef(course.ref, lesson.ref), lessons[lesson.ref]!);
      });
      output[course.ref] = { id, lessons };
    });
    return output;
  },
});

function courseItem(course: ImportCourse, id: number, index: number, context: BuildContext): SpaceItem {
  const createdAt = course.created_at ?? context.now;
  const settings: CourseSettings = {
    ...DEFAULT_COURSE_SETTINGS,
    ...(course.settings as Partial<CourseSettings>),
  };
  if (course.course_type) settings.course_type = course.course_type;
  if (course.sequential_lesson_order !== undefined)
    settings.sequential_lesson_order = course.sequential_lesson_order ? 'yes' : 'no';
  const creator = course.created_by ?? course.admins[0];
  return {
    id,
    title: course.title,
    slug: course.slug,
    description: course.description,
    description_rendered: renderMarkdown(course.description),
    logo: course.logo,
    cover_photo: course.cover_photo,
    created_by: creator === undefined ? 0 : context.userId(creator),
    parent_id: null,
    privacy: course.privacy,
    serial: course.serial ?? index + 1,
    status: course.status,
    type: 'course',
    settings: { ...settings },
    course_type: settings.course_type,
    lockscreen: [],
    category_ids: [],
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** One lesson: its post, order row and quiz, counted on the course when published. Returns its id. */
function buildLesson(
  context: BuildContext,
  course: SpaceItem,
  lesson: ImportLesson,
  position: number,
  label: string,
): number {
  const id = context.takeId('post');
  const createdAt = lesson.created_at ?? course.created_at;
  const post: PostItem = {
    id,
    user_id: course.created_by,
    space_id: course.id,
    space_visibility: spaceVisibility(course.privacy),
    title: lesson.title,
    slug: lesson.slug,
    message: lesson.message,
    message_rendered: renderMarkdown(lesson.message),
    type: 'course_lesson',
    status: lesson.status,
    topic_ids: [],
    comments_count: 0,
    reactions_count: 0,
    media: [],
    created_at: createdAt,
    updated_at: createdAt,
    course_id: course.id,
    position,
  };
  context.posts.set(id, post);
  const quiz = lesson.quiz;
  context.plan.unit(
    label,
    [
      { item: storedPost(post), unchanged: ['status', 'comments_count'] },
      storedLessonOrderRow({
        id,
        course_id: course.id,
        position,
        title: lesson.title,
        slug: lesson.slug,
        status: lesson.status,
      }),
      ...(quiz
        ? [
            storedQuiz({
              lesson_id: id,
              course_id: course.id,
              passing_score: quiz.passing_score,
              max_attempts: quiz.max_attempts,
              allow_retake: quiz.allow_retake,
              time_limit: quiz.time_limit,
              show_correct_answers: quiz.show_correct_answers,
              randomize_questions: quiz.randomize_questions,
              questions: quiz.questions.map((q) => ({
                id: q.id,
                slug: q.slug ?? q.id,
                type: q.type,
                question: q.question,
                options: q.options ?? [],
                points: q.points,
                required: q.required,
                explanation: q.explanation,
                accepted_answers: q.accepted_answers ?? [],
              })),
              created_at: createdAt,
              updated_at: createdAt,
            }),
          ]
        : []),
    ],
    lesson.status === 'published'
      ? [{ key: spaceStatsKey(course.id), deltas: { published_lessons_count: 1 } }]
      : [],
  );
  return id;
}
