/** The courses domain's public surface: what other domains may use (README, import rules). */
export * from './course-item.ts';
export { hidesCourse } from './course-access.ts';
export {
  type CourseProgress,
  type CourseProgressItem,
  courseProgressOf,
  courseProgressRead,
} from './course-progress.ts';
export { findCourseLessons, findCourseStats, findQuiz, findStudentProgress } from './course-repository.ts';
export {
  announceLessonCompletion,
  checkEarlierLessons,
  completeLesson,
  type LessonCompletionPlan,
  planLessonCompletion,
  recordsCourseProgress,
} from './lesson-completion.ts';
export { type QuizInput, QuizSchema } from './quiz-schema.ts';
