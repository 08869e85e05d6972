import { type Caller, isEnrolled } from '../auth/index.ts';
import { findPostsByIds, type PostItem } from '../feeds/index.ts';
import type { MembershipItem, SpaceItem } from '../spaces/index.ts';
import { hidesCourse } from './course-access.ts';
import { courseNotFound, lessonNotFound, notCourseParticipant } from './course-errors.ts';
import { findCourseAndMembership } from './course-repository.ts';

export interface ParticipantLesson {
  readonly course: SpaceItem;
  readonly lesson: PostItem;
  readonly membership: MembershipItem | undefined;
}

/**
 * A published lesson of a course the caller takes part in: an active member of the course (its students) or one of
 * its admins (permissions.ts `isEnrolled`). Two parallel reads (course and membership in one BatchGetItem;
 * the lesson). No such course: 404; not a participant: 403 `rest_forbidden`; not a published lesson of this course:
 * 404.
 */
export async function loadParticipantLesson(
  caller: Caller,
  courseId: number,
  lessonId: number,
): Promise<ParticipantLesson> {
  const [{ course, membership }, lessons] = await Promise.all([
    findCourseAndMembership(courseId, caller.id),
    findPostsByIds([lessonId]),
  ]);
  return participantLesson(caller, courseId, lessonId, { course, membership, lesson: lessons.get(lessonId) });
}

/** The refusals of `loadParticipantLesson`, on items the caller read in a batch of its own. */
export function participantLesson(
  caller: Caller,
  courseId: number,
  lessonId: number,
  found: {
    readonly course: SpaceItem | undefined;
    readonly membership: MembershipItem | undefined;
    readonly lesson: PostItem | undefined;
  },
): ParticipantLesson {
  const { course, membership, lesson } = found;
  if (course?.type !== 'course' || hidesCourse(caller, course, membership)) throw courseNotFound();
  if (!isEnrolled(caller, membership)) throw notCourseParticipant();
  if (
    lesson?.id !== lessonId ||
    lesson.type !== 'course_lesson' ||
    lesson.course_id !== courseId ||
    lesson.status !== 'published'
  )
    throw lessonNotFound();
  return { course, lesson, membership };
}
