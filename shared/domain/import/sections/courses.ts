import { spaceStatsKey } from '../../../db/keys/spaces.ts';
import {
  type CourseSettings,
  DEFAULT_COURSE_SETTINGS,
  EMPTY_COURSE_STATS,
  storedLessonOrderRow,
  storedQuiz,
} from '../../courses/index.ts';
import { type PostItem, storedPost } from '../../feeds/index.ts';
import { type SpaceItem, spaceVisibility } from '../../spaces/index.ts';
import { renderMarkdown } from '../../text/index.ts';
import { itemName } from '../import-error.ts';
import type { ImportCourse, ImportLesson } from '../import-schema.ts';
import { lessonRef } from '../reference-scope.ts';
import { type BuildContext, defineSection } from './section.ts';
import {
  buildSpaceLike,
  type ListedMember,
  resolveSpaceLike,
  slugProbes,
  spaceFields,
} from './space-common.ts';

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
      resolveSpaceLike('course', course, i, where, listed(course, where), scope);
      course.lessons.forEach((lesson, j) => {
        const lessonWhere = itemName(`${where}: lessons`, j, lesson.ref);
        scope.define('lesson', lessonRef(course.ref, lesson.ref), j, lessonWhere, lesson.ref);
        scope.unique(`lesson-slug:${course.ref}`, lesson.slug, `${where}: lessons[${j}]`, 'slug');
      });
    });
  },

  mustBeFree: (courses) => slugProbes('courses', courses),

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
      buildSpaceLike(context, label, item, { ...EMPTY_COURSE_STATS }, listed(course, label));
      const lessons: Record<string, number> = {};
      course.lessons.forEach((lesson, position) => {
        const lessonId = buildLesson(context, item, lesson, position + 1, `${label}: lessons[${position}]`);
        context.setId('lesson', lessonRef(course.ref, lesson.ref), lessonId);
        lessons[lesson.ref] = lessonId;
      });
      output[course.ref] = { id, lessons };
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
