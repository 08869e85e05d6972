import { toSqlDateTime } from '../dates.ts';
import { type SpaceItem, toSpaceCore } from '../spaces/index.ts';
import type { HostUserSummary } from '../users/index.ts';
import { type CourseSettings, type CourseStats, DEFAULT_COURSE_SETTINGS } from './course-defaults.ts';

/**
 * overAllProgress: completions over possible completions (students × published lessons), in percent, rounded up
 * as the original platform does and never above 100 (a lesson unpublished after completions keeps its count).
 */
export const overAllProgress = (stats: CourseStats): number =>
  progressPercent(stats.total_completions, stats.students_count * stats.published_lessons_count);

/** `done` of `possible` in percent, rounded up, within 0..100. */
export const progressPercent = (done: number, possible: number): number =>
  possible <= 0 ? 0 : Math.min(100, Math.ceil((done / possible) * 100));

/** The course in its administrative form (contract "Course (administrative form)"). */
export function toAdminCourse(course: SpaceItem, stats: CourseStats, owner: HostUserSummary | null) {
  const settings: CourseSettings = {
    ...DEFAULT_COURSE_SETTINGS,
    ...(course.settings as Partial<CourseSettings>),
  };
  return {
    ...toSpaceCore(course),
    type: 'course' as const,
    course_type: course.course_type ?? settings.course_type,
    created_at: toSqlDateTime(course.created_at),
    updated_at: toSqlDateTime(course.updated_at),
    owner,
    category_ids: course.category_ids ?? [],
    lockscreen: course.lockscreen ?? [],
    settings,
    students_count: stats.students_count,
    ...(stats.students_count > 0
      ? { completed_students: stats.completed_students, overAllProgress: overAllProgress(stats) }
      : {}),
  };
}
export type AdminCourse = ReturnType<typeof toAdminCourse>;
