import { courseStatsKey } from '../../db/keys/courses.ts';
import { membershipKey } from '../../db/keys/spaces.ts';
import { counterUpdate } from '../../db/counters.ts';
import { type TransactAction, transactWriteIfConditionsHold, updateAction } from '../../db/transact.ts';
import { logger } from '../../observability/logger.ts';
import { emitNotification } from '../notifications/index.ts';
import { findMembership, type MembershipItem } from '../spaces/index.ts';
import type { LessonOrderRow } from './course-item.ts';
import { lessonLocked } from './course-errors.ts';
import { findCourseLessons } from './course-repository.ts';

/**
 * Lesson completion for course progress: the one place that records it (quiz passes, and the students' own
 * `PUT …/completion`, which can also take a lesson back out: `planLessonIncompletion`).
 *
 * - A completion adds the lesson to the membership's `completed_lessons` number set (and 1 to its
 *   `completed_count`, the set's size as a number, which an import's rollback can compare) and `ADD total_completions 1`
 *   on the course stats; when it makes every published lesson complete, also `ADD completed_students 1`.
 * - Idempotent: a lesson already in the set is not recorded again, so a second pass counts nothing.
 * - Exact under concurrency: the membership update carries the condition that the set is still the one the plan
 *   was computed from (`completed_lessons = :seen`, DynamoDB compares sets by value), so two completions of the
 *   same lesson, or of the last two lessons at once, cannot both count; the loser re-reads and re-plans.
 * - Only an active `student` membership records progress: course staff trying a quiz do not move the course's
 *   completion figures (overAllProgress divides by students_count).
 *
 * Invariant the figures rely on: lessons only ever enter or leave `completed_lessons` through these plans. Publishing a new lesson
 * does not re-open `completed_students` (that belongs to the lesson-publish flow).
 */
export interface LessonCompletionPlan {
  /** The membership update; put it in the same transaction as the counted change. */
  readonly membershipUpdate: TransactAction;
  /** Deltas for the course stats item (`courseStatsKey`); merge them with the transaction's other course deltas. */
  readonly courseStatsDeltas: Readonly<Record<string, number>>;
  readonly completesCourse: boolean;
}

/** The student roles whose completions count (course staff's do not). */
export const recordsCourseProgress = (membership: MembershipItem | undefined): membership is MembershipItem =>
  membership?.status === 'active' && membership.role === 'student';

/**
 * The writes that record `lessonId` as completed for the member, planned from the membership as read; undefined
 * when nothing is to be recorded (already complete, or not a student).
 */
export function planLessonCompletion(
  membership: MembershipItem | undefined,
  lessonId: number,
  lessons: readonly LessonOrderRow[],
): LessonCompletionPlan | undefined {
  if (!recordsCourseProgress(membership)) return undefined;
  const seen = membership.completed_lessons ?? new Set<number>();
  if (seen.has(lessonId)) return undefined;
  const after = new Set([...seen, lessonId]);
  const published = lessons
    .filter((lesson) => lesson.status === 'published')
    .map((lesson) => lesson.lesson_id);
  const wasComplete = published.length > 0 && published.every((id) => seen.has(id));
  const completesCourse = !wasComplete && published.every((id) => after.has(id));
  return {
    membershipUpdate: updateAction(membershipKey(membership.space_id, membership.user_id), {
      UpdateExpression: 'ADD completed_lessons :lesson, completed_count :one',
      ConditionExpression:
        seen.size === 0
          ? '#status = :active AND attribute_not_exists(completed_lessons)'
          : '#status = :active AND completed_lessons = :seen',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':lesson': new Set([lessonId]),
        ':one': 1,
        ':active': 'active',
        ...(seen.size === 0 ? {} : { ':seen': seen }),
      },
    }),
    courseStatsDeltas: { total_completions: 1, ...(completesCourse ? { completed_students: 1 } : {}) },
    completesCourse,
  };
}

/**
 * The writes that take `lessonId` back out of the member's completed lessons (`state: incomplete`); undefined when
 * it is not recorded as completed (or the member is not a student). The mirror of `planLessonCompletion`: the same
 * set condition, `ADD total_completions -1`, and `completed_students -1` when the member had every published lesson
 * and now no longer has. DynamoDB removes an emptied set, which is what `planLessonCompletion` expects.
 */
export function planLessonIncompletion(
  membership: MembershipItem | undefined,
  lessonId: number,
  lessons: readonly LessonOrderRow[],
): LessonCompletionPlan | undefined {
  if (!recordsCourseProgress(membership)) return undefined;
  const seen = membership.completed_lessons ?? new Set<number>();
  if (!seen.has(lessonId)) return undefined;
  const published = publishedLessonIds(lessons);
  const wasComplete = published.length > 0 && published.every((id) => seen.has(id));
  const reopens = wasComplete && published.includes(lessonId);
  return {
    membershipUpdate: updateAction(membershipKey(membership.space_id, membership.user_id), {
      UpdateExpression: 'DELETE completed_lessons :lesson ADD completed_count :minus',
      ConditionExpression: '#status = :active AND completed_lessons = :seen',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':lesson': new Set([lessonId]),
        ':minus': -1,
        ':active': 'active',
        ':seen': seen,
      },
    }),
    courseStatsDeltas: { total_completions: -1, ...(reopens ? { completed_students: -1 } : {}) },
    completesCourse: false,
  };
}

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
 * consistently and the course's lessons, writes the plan, and re-plans when a concurrent completion changed the
 * set meanwhile. Answers whether this call recorded it (false: already complete, or not a student).
 */
export async function completeLesson(courseId: number, userId: number, lessonId: number): Promise<boolean> {
  const lessons = await findCourseLessons(courseId);
  for (;;) {
    const membership = await findMembership(courseId, userId, { consistent: true });
    const plan = planLessonCompletion(membership, lessonId, lessons);
    if (!plan) return false;
    const outcome = await transactWriteIfConditionsHold([
      plan.membershipUpdate,
      counterUpdate(courseStatsKey(courseId), plan.courseStatsDeltas),
    ]);
    if (outcome.written) return true;
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
