import type { CourseType } from '../../vocabulary/courses.ts';
import type { SpaceLink } from '../spaces/index.ts';

/** The contract's course `settings` keys; switches are `yes`/`no` strings, as on the original platform. */
export interface CourseSettings {
  can_request_join: 'yes' | 'no';
  course_details: string;
  course_layout: string;
  course_type: CourseType;
  custom_lock_screen: 'yes' | 'no';
  disable_comments: 'yes' | 'no';
  emoji: string;
  hide_instructor_view: 'yes' | 'no';
  hide_members_count: 'yes' | 'no';
  layout_style: string;
  links: SpaceLink[];
  members_page_status: string;
  og_image: string;
  public_lesson_view: 'yes' | 'no';
  restricted_post_only: 'yes' | 'no';
  /** `yes`: a lesson opens only when the previous one is completed (quiz passed where there is one). */
  sequential_lesson_order: 'yes' | 'no';
  shape_svg: string;
  show_instructor_students_count: 'yes' | 'no';
  show_sidebar: 'yes' | 'no';
  topic_required: 'yes' | 'no';
}

export const DEFAULT_COURSE_SETTINGS: CourseSettings = {
  can_request_join: 'no',
  course_details: '',
  course_layout: 'classic',
  course_type: 'self_paced',
  custom_lock_screen: 'no',
  disable_comments: 'no',
  emoji: '',
  hide_instructor_view: 'no',
  hide_members_count: 'no',
  layout_style: 'classic',
  links: [],
  members_page_status: 'members_only',
  og_image: '',
  public_lesson_view: 'no',
  restricted_post_only: 'yes',
  sequential_lesson_order: 'no',
  shape_svg: '',
  show_instructor_students_count: 'yes',
  show_sidebar: 'yes',
  topic_required: 'no',
};

/**
 * Course aggregates: the course's space stats item (`courseStatsKey`, besides members_count) plus the shards of
 * its completion counters (`courseCompletionStats`), summed (course-repository.ts `findCourseWithStats`).
 * overAllProgress = ceil(total_completions ÷ (students_count × published_lessons_count) × 100).
 */
export interface CourseStats {
  students_count: number;
  completed_students: number;
  total_completions: number;
  published_lessons_count: number;
  lesson_comments_published: number;
  lesson_comments_pending: number;
}

export const EMPTY_COURSE_STATS: CourseStats = {
  students_count: 0,
  completed_students: 0,
  total_completions: 0,
  published_lessons_count: 0,
  lesson_comments_published: 0,
  lesson_comments_pending: 0,
};
