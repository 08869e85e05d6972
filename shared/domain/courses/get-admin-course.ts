import type { Caller } from '../auth/index.ts';
import { findUserById, toHostUserSummary } from '../users/index.ts';
import { loadAdministeredCourse } from './course-access.ts';
import { type AdminCourse, toAdminCourse } from './course-mapper.ts';

/**
 * `GET /admin/courses/{course_id}`: the course in its administrative form. Two round trips whatever the course's
 * size: the course, its stats and the caller's membership in one BatchGetItem, then the owner. Progress figures
 * come from the counters lesson completions maintain (lesson-completion.ts), never from reading students.
 * Everyone who reaches the answer administers the course (its admins, community and host administrators, global
 * course admins), so `owner.user_email` is the owner's address for all of them: they run the course with its owner.
 */
export async function getAdminCourse(caller: Caller, courseId: number): Promise<{ course: AdminCourse }> {
  const { course, stats } = await loadAdministeredCourse(caller, courseId);
  const owner = course.created_by > 0 ? await findUserById(course.created_by) : undefined;
  return {
    course: toAdminCourse(course, stats, owner ? toHostUserSummary(owner, true) : null),
  };
}
