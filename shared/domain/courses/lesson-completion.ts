import { courseCompletionStats, courseProgressKey, courseStatsKey } from '../../db/keys/courses.ts';
import { membershipKey } from '../../db/keys/spaces.ts';
import { counterUpdate } from '../../db/counters.ts';
import { shardedCounterUpdates } from '../../db/sharded-counters.ts';
import { type TransactAction, updateAction } from '../../db/transact.ts';
import { logger } from '../../observability/logger.ts';
import { emitNotification } from '../notifications/index.ts';
import type { MembershipItem } from '../spaces/index.ts';
import type { LessonOrderRow } from './course-item.ts';
import { lessonLocked } from './course-errors.ts';
import type { CourseProgress } from './course-progress.ts';
import { findCourseLessons, findStudentProgress } from './course-lookups.ts';
import { writeLessonProgress } from './course-repository.ts';

/**
 * Lesson completion for course progress: the one place that records it (quiz passes, and the students' own
 * `PUT …/completion`, which can also take a lesson back out: `planLessonIncompletion`).
 *
 * - A completion adds the lesson to the student's `completed_lessons` number set (and 1 to its `completed_count`,
 *   the set's size as a number, which an import's rollback can compare) and `ADD total_completions 1` to the
 *   course's statistics; when it makes every published lesson complete, also `ADD completed_students 1`. Where the
 *   set and the counts live is the student's progress home (course-progress.ts): their own progress item and
 *   their shard of the course's completion counters, or (progress recorded before those existed) the membership
 *   and the course's stats item.
 * - Idempotent: a lesson already in the set is not recorded again, so a second pass counts nothing.
 * - Exact under concurrency: the set's update carries the condition that the set is still the one the plan was
 *   computed from (`completed_lessons = :seen`, DynamoDB compares sets by value), so two completions of the same
 *   lesson, or of the last two lessons at once, cannot both count; the loser re-reads and re-plans.
 * - Only an active `student` membership records progress: course staff trying a quiz do not move the course's
 *   completion figures (overAllProgress divides by students_count). A membership's role and status are set when
 *   it is created and never change afterwards, so the plan's read of them holds at the write.
 *
 * Invariant the figures rely on: lessons only ever enter or leave `completed_lessons` through these plans. Publishing a new lesson
 * does not re-open `completed_students` (that belongs to the lesson-publish flow).
 */
export interface LessonCompletionPlan {
  /** The update of the student's set; put it in the same transaction as the counted change, last. */
  readonly progressUpdate: TransactAction;
  /** The move of the course's completion counters (on the item the student's completions are counted on). */
  readonly statsUpdates: readonly TransactAction[];
  readonly completesCourse: boolean;
}

/** Plans a change of one lesson's state for a member, from the membership, progress and lessons as read. */
export type LessonProgressPlanner = (
  membership: MembershipItem | undefined,
  progress: CourseProgress,
  lessonId: number,
  lessons: readonly LessonOrderRow[],
) => LessonCompletionPlan | undefined;

/** The student roles whose completions count (course staff's do not). */
export const recordsCourseProgress = (membership: MembershipItem | undefined): membership is MembershipItem =>
  membership?.status === 'active' && membership.role === 'student';

/**
 * The writes that record `lessonId` as completed for the member, planned from the membership and progress as
 * read; undefined when nothing is to be recorded (already complete, or not a student).
 */
export const planLessonCompletion: LessonProgressPlanner = (membership, progress, lessonId, lessons) => {
  if (!recordsCourseProgress(membership)) return undefined;
  const seen = progress.completed;
  if (seen.has(lessonId)) return undefined;
  const after = new Set([...seen, lessonId]);
  const published = publishedLessonIds(lessons);
  const wasComplete = published.length > 0 && published.every((id) => seen.has(id));
  const completesCourse = !wasComplete && published.every((id) => after.has(id));
  return {
    progressUpdate: setUpdate(membership, progress, lessonId, 1),
    statsUpdates: statsUpdates(membership, progress, {
      total_completions: 1,
      ...(completesCourse ? { completed_students: 1 } : {}),
    }),
    completesCourse,
  };
};

/**
 * The writes that take `lessonId` back out of the member's completed lessons (`state: incomplete`); undefined when
 * it is not recorded as completed (or the member is not a student). The mirror of `planLessonCompletion`: the same
 * set condition, `ADD total_completions -1`, and `completed_students -1` when the member had every published lesson
 * and now no longer has. DynamoDB removes an emptied set, which is what `planLessonCompletion` expects.
 */
export const planLessonIncompletion: LessonProgressPlanner = (membership, progress, lessonId, lessons) => {
  if (!recordsCourseProgress(membership)) return undefined;
  const seen = progress.completed;
  if (!seen.has(lessonId)) return undefined;
  const published = publishedLessonIds(lessons);
  const wasComplete = published.length > 0 && published.every((id) => seen.has(id));
  const reopens = wasComplete && published.includes(lessonId);
  return {
    progressUpdate: setUpdate(membership, progress, lessonId, -1),
    statsUpdates: statsUpdates(membership, progress, {
      total_completions: -1,
      ...(reopens ? { completed_students: -1 } : {}),
    }),
    completesCourse: false,
  };
};

/** The set's update on the student's progress home, on the condition that the set is still the one seen. */
function setUpdate(
  membership: MembershipItem,
  progress: CourseProgress,
  lessonId: number,
  delta: 1 | -1,
): TransactAction {
  const seen = progress.completed;
  const change =
    delta > 0
      ? 'ADD completed_lessons :lesson, completed_count :delta'
      : 'DELETE completed_lessons :lesson ADD completed_count :delta';
  const unchanged = seen.size === 0 ? 'attribute_not_exists(completed_lessons)' : 'completed_lessons = :seen';
  const values = {
    ':lesson': new Set([lessonId]),
    ':delta': delta,
    ...(seen.size === 0 ? {} : { ':seen': seen }),
  };
  if (progress.home === 'membership')
    return updateAction(membershipKey(membership.space_id, membership.user_id), {
      UpdateExpression: change,
      ConditionExpression: `#status = :active AND ${unchanged}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ...values, ':active': 'active' },
    });
  // The item is created by the first completion (UpdateItem creates what is absent).
  return updateAction(courseProgressKey(membership.space_id, membership.user_id), {
    UpdateExpression: `${change} SET entity = :entity, course_id = :course, user_id = :user`,
    ConditionExpression: unchanged,
    ExpressionAttributeValues: {
      ...values,
      ':entity': 'course_progress',
      ':course': membership.space_id,
      ':user': membership.user_id,
    },
  });
}

/** The counters' move on the item the student's completions are counted on (course-progress.ts). */
const statsUpdates = (
  membership: MembershipItem,
  progress: CourseProgress,
  deltas: Readonly<Record<string, number>>,
): TransactAction[] =>
  progress.home === 'membership'
    ? [counterUpdate(courseStatsKey(membership.space_id), deltas)]
    : shardedCounterUpdates(courseCompletionStats(membership.space_id), membership.user_id, deltas);

/**
 * `sequential_lesson_order`: every published lesson before `lesson` (course order) must be completed first, or
 * 400 `lesson_locked` naming the first one that is not. The one rule for both ways a lesson gets completed (the
 * completion route and a quiz submission); check it against the membership the completion plan is made from.
 */
export function checkEarlierLessons(
  lessons: readonly LessonOrderRow[],
  lesson: LessonOrderRow,
  completed: ReadonlySet<number> | undefined,
): void {
  for (const row of lessons) {
    if (row.lesson_id === lesson.lesson_id) return;
    if (row.status === 'published' && !completed?.has(row.lesson_id)) throw lessonLocked(row.lesson_id);
  }
}

const publishedLessonIds = (lessons: readonly LessonOrderRow[]): number[] =>
  lessons.filter((lesson) => lesson.status === 'published').map((lesson) => lesson.lesson_id);

/**
 * Records one lesson completion on its own (for callers without a transaction of their own): reads the membership
 * and progress consistently and the course's lessons, writes the plan, and re-plans when a concurrent completion
 * changed the set meanwhile. Answers whether this call recorded it (false: already complete, or not a student).
 */
export async function completeLesson(courseId: number, userId: number, lessonId: number): Promise<boolean> {
  const lessons = await findCourseLessons(courseId);
  for (;;) {
    const { membership, progress } = await findStudentProgress(courseId, userId);
    const plan = planLessonCompletion(membership, progress, lessonId, lessons);
    if (!plan) return false;
    if ((await writeLessonProgress(plan)).written) return true;
  }
}

/**
 * `lesson_complete` to the student (decisions.md, Notifications). Called after the completion is stored; a failure
 * to notify is logged and never undoes or fails the completion.
 */
export async function announceLessonCompletion(completion: {
  readonly userId: number;
  readonly courseId: number;
  readonly lessonId: number;
  readonly lessonTitle: string;
}): Promise<void> {
  try {
    await emitNotification({
      recipientId: completion.userId,
      type: 'lesson_complete',
      // The actor is the student, the recipient (decisions.md); stored null because the emission never notifies
      // its own actor, and answered as the student by the notifications mapper (notificationActorId).
      actorId: null,
      title: 'Lesson completed',
      message: `You completed the lesson "${completion.lessonTitle}".`,
      actionUrl: `/courses/${completion.courseId}/lessons/${completion.lessonId}`,
      objectId: completion.lessonId,
      objectType: 'lesson',
    });
  } catch (error) {
    logger.error('could not notify a lesson completion', { ...completion, error });
  }
}
