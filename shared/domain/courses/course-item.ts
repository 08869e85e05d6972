import * as v from 'valibot';
import { lessonOrderKey, quizKey } from '../../db/keys/courses.ts';
import {
  type CourseType,
  LESSON_STATUSES,
  type LessonStatus,
  QUESTION_TYPES,
  type QuestionType,
} from '../../vocabulary/courses.ts';
import type { SpaceLink } from '../spaces/index.ts';

export type { CourseType, LessonStatus, QuestionType };

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

const integer = v.pipe(v.number(), v.integer());

/** The order row of a lesson in its course partition; it copies what a lesson list shows. */
export const LessonOrderRowSchema = v.object({
  lesson_id: integer,
  course_id: integer,
  position: integer,
  title: v.string(),
  slug: v.string(),
  status: v.picklist(LESSON_STATUSES),
});
export type LessonOrderRow = v.InferOutput<typeof LessonOrderRowSchema>;

export const storedLessonOrderRow = (lesson: {
  id: number;
  course_id: number;
  position: number;
  title: string;
  slug: string;
  status: LessonStatus;
}) => ({
  ...lessonOrderKey(lesson.course_id, lesson.position, lesson.id),
  entity: 'lesson_order',
  lesson_id: lesson.id,
  course_id: lesson.course_id,
  position: lesson.position,
  title: lesson.title,
  slug: lesson.slug,
  status: lesson.status,
});

export const QuizOptionSchema = v.object({ id: v.string(), text: v.string(), is_correct: v.boolean() });
export type QuizOption = v.InferOutput<typeof QuizOptionSchema>;

/** A quiz question as stored; `slug` keys the second result shape, `id` the first. */
export const QuizQuestionSchema = v.object({
  id: v.string(),
  slug: v.string(),
  type: v.picklist(QUESTION_TYPES),
  question: v.string(),
  /** Choice types; empty for short answers. */
  options: v.array(QuizOptionSchema),
  points: integer,
  required: v.boolean(),
  explanation: v.string(),
  /** Short answers graded by exact match; empty means manual grading. */
  accepted_answers: v.array(v.string()),
});
export type QuizQuestion = v.InferOutput<typeof QuizQuestionSchema>;

/** The quiz of a lesson (`POST#<lessonId>` / `QUIZ`), as stored and as reads parse it. */
export const QuizItemSchema = v.object({
  lesson_id: integer,
  course_id: integer,
  passing_score: integer,
  /** 0 = unlimited. */
  max_attempts: integer,
  allow_retake: v.boolean(),
  /** Seconds; 0 = none. */
  time_limit: integer,
  show_correct_answers: v.boolean(),
  randomize_questions: v.boolean(),
  questions: v.array(QuizQuestionSchema),
  created_at: v.string(),
  updated_at: v.string(),
});
export type QuizItem = v.InferOutput<typeof QuizItemSchema>;

export const QUIZ_DEFAULTS = {
  passing_score: 70,
  max_attempts: 0,
  allow_retake: true,
  time_limit: 0,
  show_correct_answers: true,
  randomize_questions: false,
} as const;

export const storedQuiz = (quiz: QuizItem) => ({ ...quizKey(quiz.lesson_id), entity: 'quiz', ...quiz });
