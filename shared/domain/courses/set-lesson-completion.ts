import type { Caller } from '../auth/index.ts';
import type { MembershipItem } from '../spaces/index.ts';
import type { LessonOrderRow } from './course-item.ts';
import { progressPercent } from './course-mapper.ts';
import { hidesCourse } from './course-access.ts';
import { courseNotFound, lessonNotFound, notCourseStudent, quizRequired } from './course-errors.ts';
import { findCourseLessons, findQuiz, findStudentProgress } from './course-lookups.ts';
import { writeLessonProgress } from './course-repository.ts';
import {
  checkEarlierLessons,
  type LessonCompletionPlan,
  planLessonCompletion,
  planLessonIncompletion,
  recordsCourseProgress,
} from './lesson-completion.ts';

export type CompletionState = 'completed' | 'incomplete';

/** A lost race re-reads and re-plans; this many rounds means something other than a race is wrong. */
const MAX_ROUNDS = 25;

/**
 * `PUT /courses/{course_id}/lessons/{lesson_id}/completion`: an active student of the course marks a published
 * lesson completed or incomplete. Refusals, in order: no such course 404; not a student 403 (course staff have no
 * progress); not a published lesson of the course 404; a lesson with a quiz 400 `quiz_required` (only passing the
 * quiz completes it, quizzes domain); completing a lesson of a `sequential_lesson_order` course while an earlier
 * published lesson is not completed 400 `lesson_locked`.
 *
 * Idempotent: asking for the state the lesson is already in changes nothing. Exact under concurrency: the plan
 * (lesson-completion.ts) writes the membership's set on the condition that it is still the set it was computed
 * from, together with the course counters, so the loser of a race re-reads and re-plans; the prerequisite check is
 * made against that same set, so a concurrent "incomplete" of an earlier lesson cannot slip under a completion.
 */
export async function setLessonCompletion(
  caller: Caller,
  courseId: number,
  lessonId: number,
  input: { readonly state: CompletionState },
) {
  const [first, lessons, quiz] = await Promise.all([
    findStudentProgress(courseId, caller.id, { withCourse: true }),
    findCourseLessons(courseId),
    findQuiz(lessonId),
  ]);
  const course = first.course;
  if (course?.type !== 'course' || hidesCourse(caller, course, first.membership)) throw courseNotFound();
  if (!recordsCourseProgress(first.membership)) throw notCourseStudent();
  const lesson = lessons.find((row) => row.lesson_id === lessonId);
  if (lesson?.status !== 'published') throw lessonNotFound();
  if (quiz) throw quizRequired();
  const sequential = course.settings.sequential_lesson_order === 'yes';

  let membership: MembershipItem | undefined = first.membership;
  let progress = first.progress;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (round > 0) ({ membership, progress } = await findStudentProgress(courseId, caller.id));
    if (!recordsCourseProgress(membership)) throw notCourseStudent();
    let plan: LessonCompletionPlan | undefined;
    if (input.state === 'completed') {
      if (sequential) checkEarlierLessons(lessons, lesson, progress.completed);
      plan = planLessonCompletion(membership, progress, lessonId, lessons);
    } else {
      plan = planLessonIncompletion(membership, progress, lessonId, lessons);
    }
    if (!plan) return answer(courseId, lessonId, input.state, lessons, progress.completed);
    const outcome = await writeLessonProgress(plan);
    if (outcome.written) {
      const after = new Set(progress.completed);
      if (input.state === 'completed') after.add(lessonId);
      else after.delete(lessonId);
      return answer(courseId, lessonId, input.state, lessons, after);
    }
  }
  throw new Error(`Lesson ${lessonId} progress kept changing under ${MAX_ROUNDS} attempts`);
}

function answer(
  courseId: number,
  lessonId: number,
  state: CompletionState,
  lessons: readonly LessonOrderRow[],
  completed: ReadonlySet<number> | undefined,
) {
  const published = lessons.filter((row) => row.status === 'published').map((row) => row.lesson_id);
  const done = published.filter((id) => completed?.has(id) === true);
  return {
    message: state === 'completed' ? 'Lesson marked as completed.' : 'Lesson marked as incomplete.',
    data: {
      course_id: courseId,
      lesson_id: lessonId,
      state,
      completed_lessons: done,
      total_lessons: published.length,
      progress: progressPercent(done.length, published.length),
      course_completed: published.length > 0 && done.length === published.length,
    },
  };
}
