import * as v from 'valibot';
import { lessonOrderKey, quizKey } from '../../db/keys/courses.ts';
import {
  type CourseType,
  LESSON_STATUSES,
  type LessonStatus,
  QUESTION_TYPES,
  type QuestionType,
} from '../../vocabulary/courses.ts';

export type { CourseType, LessonStatus, QuestionType };

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
