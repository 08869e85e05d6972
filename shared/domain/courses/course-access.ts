import { type Caller, isCourseAdmin, isSpaceMember } from '../auth/index.ts';
import type { MembershipItem, SpaceItem } from '../spaces/index.ts';
import type { CourseStats } from './course-defaults.ts';
import { courseNotFound, notCourseAdmin } from './course-errors.ts';
import { findCourseWithStats } from './course-repository.ts';

/**
 * A secret course hides from whoever is not in it (an active member in any role) and does not administer it: every
 * course route answers them as for a course that does not exist, as spaces do (create-feed.ts), so its existence
 * does not show. Public and private courses answer 403 as before.
 */
export const hidesCourse = (
  caller: Caller,
  course: Pick<SpaceItem, 'privacy'>,
  membership: MembershipItem | undefined,
): boolean =>
  course.privacy === 'secret' && !isSpaceMember(caller, membership) && !isCourseAdmin(caller, membership);

export interface AdministeredCourse {
  readonly course: SpaceItem;
  readonly stats: CourseStats;
  readonly membership: MembershipItem | undefined;
}

/**
 * A course the caller administers (contract "Course administration"): its admins (space role `admin` in the
 * course), and those who act as admins of every course (host `manage_options`, community admins, the global
 * `course_admin` role; permissions.ts `isCourseAdmin`). One BatchGetItem; an unknown id or a space that is not a
 * course is 404 `not_found`, anyone else 403 `rest_forbidden`.
 */
export async function loadAdministeredCourse(caller: Caller, courseId: number): Promise<AdministeredCourse> {
  const { course, stats, membership } = await findCourseWithStats(courseId, caller.id);
  if (course?.type !== 'course' || hidesCourse(caller, course, membership)) throw courseNotFound();
  if (!isCourseAdmin(caller, membership)) throw notCourseAdmin();
  return { course, stats, membership };
}
