import { spaceStatsKey } from '../../../db/keys/spaces.ts';
import { importedLessonItems } from '../../courses/index.ts';
import { newPostWrites, type PostItem } from '../../feeds/index.ts';
import { spaceVisibility } from '../../spaces/index.ts';
import { renderMarkdown } from '../../text/index.ts';
import { itemName } from '../import-error.ts';
import type { ImportLesson } from '../import-schema.ts';
import { lessonRef } from '../reference-scope.ts';
import { type BuiltCourse, defineCoursePart } from './course-part.ts';
import type { BuildContext } from './section.ts';

/**
 * A course's `lessons`: each lesson's post (type `course_lesson`, `post` ids before the file's feeds), its order
 * row and its quiz, counted on the course's `published_lessons_count` when published. Lesson refs and slugs are
 * unique within their course.
 */
export const lessonsPart = defineCoursePart({
  name: 'lessons',

  resolve(lessons, course, where, scope) {
    lessons.forEach((lesson, j) => {
      const lessonWhere = itemName(`${where}: lessons`, j, lesson.ref);
      scope.define('lesson', lessonRef(course.ref, lesson.ref), j, lessonWhere, lesson.ref);
      scope.unique(`lesson-slug:${course.ref}`, lesson.slug, `${where}: lessons[${j}]`, 'slug');
    });
  },

  ids: (lessons) => ({ post: lessons.length }),

  build(lessons, course, context) {
    const ids: Record<string, number> = {};
    lessons.forEach((lesson, position) => {
      const id = buildLesson(context, course, lesson, position + 1);
      context.setId('lesson', lessonRef(course.ref, lesson.ref), id);
      ids[lesson.ref] = id;
    });
    return ids;
  },
});

function buildLesson(
  context: BuildContext,
  course: BuiltCourse,
  lesson: ImportLesson,
  position: number,
): number {
  const id = context.takeId('post');
  const { item: space } = course;
  const createdAt = lesson.created_at ?? space.created_at;
  const post: PostItem = {
    id,
    user_id: space.created_by,
    space_id: space.id,
    space_visibility: spaceVisibility(space.privacy),
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
    course_id: space.id,
    position,
  };
  context.posts.set(id, post);
  const quiz = lesson.quiz;
  // A lesson moves no feed aggregate and has no topics: its post and listing entry only.
  const writes = newPostWrites(post);
  context.plan.unit(
    `${course.where}: lessons[${position - 1}]`,
    [
      { item: writes.post, unchanged: ['status', 'comments_count'] },
      writes.listing,
      ...importedLessonItems(
        { id, course_id: space.id, position, title: lesson.title, slug: lesson.slug, status: lesson.status },
        quiz
          ? {
              lesson_id: id,
              course_id: space.id,
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
            }
          : undefined,
      ),
    ],
    lesson.status === 'published'
      ? [{ key: spaceStatsKey(space.id), deltas: { published_lessons_count: 1 } }]
      : [],
  );
  return id;
}
