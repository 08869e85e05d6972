/** The courses domain's public surface: what other domains may use (README, import rules). */
export {
  type CourseSettings,
  type CourseStats,
  DEFAULT_COURSE_SETTINGS,
  EMPTY_COURSE_STATS,
} from './course-defaults.ts';
export type {
  CourseType,
  LessonOrderRow,
  LessonStatus,
  QuestionType,
  QuizItem,
  QuizOption,
  QuizQuestion,
} from './course-item.ts';
export { hidesCourse } from './course-access.ts';
export {
  type CourseProgress,
  type CourseProgressItem,
  courseProgressOf,
  courseProgressRead,
} from './course-progress.ts';
export {
  findCourseLessons,
  findCourseStats,
  findQuiz,
  findStudentProgress,
  quizRead,
} from './course-lookups.ts';
export { importedLessonItems } from './course-write-actions.ts';
export {
  announceLessonCompletion,
  checkEarlierLessons,
  completeLesson,
  type LessonCompletionPlan,
  planLessonCompletion,
  recordsCourseProgress,
} from './lesson-completion.ts';
export { type QuizInput, QuizSchema } from './quiz-schema.ts';
