import { type Caller, isEnrolled } from '../auth/index.ts';
import {
  type CourseProgress,
  findCourseLessons,
  hidesCourse,
  type LessonOrderRow,
  type QuizItem,
} from '../courses/index.ts';
import type { MembershipItem, SpaceItem } from '../spaces/index.ts';
import type { UserItem } from '../users/index.ts';
import { findSubmissionContext } from './quiz-context-repository.ts';
import { courseNotEnrolled, lessonNotPublished, quizNotFound } from './quiz-errors.ts';

/** What a submission needs to know about its course, lesson and quiz. */
export interface QuizLesson {
  readonly course: SpaceItem;
  /** The course's lessons in order (order rows). */
  readonly lessons: readonly LessonOrderRow[];
  readonly lesson: LessonOrderRow;
  readonly quiz: QuizItem;
  readonly membership: MembershipItem | undefined;
  /** The caller's progress in the course as read (course-progress.ts). */
  readonly progress: CourseProgress;
  /** The caller's profile (the name the by-name order keeps). */
  readonly student: UserItem | undefined;
}

/**
 * Loads a course's quiz lesson for a submission in one round of two reads (one BatchGetItem of the course, the
 * caller's membership, progress and profile and the quiz; the Query of the course's lesson rows) and applies
 * decisions.md's refusals in order: no such course, lesson (in that course) or quiz: 404 `quiz_not_found`; caller
 * not enrolled and not a course admin: 403 `course_not_enrolled`; lesson not published: 403 `lesson_not_published`.
 */
export async function loadQuizLessonForSubmission(
  caller: Caller,
  courseId: number,
  lessonId: number,
): Promise<QuizLesson> {
  const [{ course, membership, progress, quiz, student }, lessons] = await Promise.all([
    findSubmissionContext(courseId, caller.id, lessonId),
    findCourseLessons(courseId),
  ]);
  const lesson = lessons.find((row) => row.lesson_id === lessonId);
  if (course?.type !== 'course' || !lesson || !quiz || quiz.course_id !== courseId) throw quizNotFound();
  if (hidesCourse(caller, course, membership)) throw quizNotFound();
  if (!isEnrolled(caller, membership)) throw courseNotEnrolled();
  if (lesson.status !== 'published') throw lessonNotPublished();
  return { course, lessons, lesson, quiz, membership, progress, student };
}

/**
 * `next_lesson_unlocked` (decisions.md): the next published lesson of the course exists and is now open to the
 * student: the quiz was passed (now, or on an earlier attempt: the lesson is complete), or the course does not
 * make lessons wait for the previous one (`sequential_lesson_order` is not `yes`).
 */
export function nextLessonUnlocked(context: QuizLesson, passed: boolean): boolean {
  const next = context.lessons.find(
    (row) =>
      row.status === 'published' &&
      (row.position > context.lesson.position ||
        (row.position === context.lesson.position && row.lesson_id > context.lesson.lesson_id)),
  );
  if (!next) return false;
  return (
    passed ||
    context.progress.completed.has(context.lesson.lesson_id) ||
    context.course.settings.sequential_lesson_order !== 'yes'
  );
}
