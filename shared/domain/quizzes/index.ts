/**
 * The quizzes domain's public surface: grading and submissions. Lessons, quizzes as authored and lesson completion
 * belong to the courses domain.
 */
export { type QuizStatistics, statisticsFor } from './quiz-statistics.ts';
export type { QuizStats, QuizSubmission } from './quiz-submission-item.ts';
export { type QuizListCopiesReport, upgradeQuizListCopies } from './upgrade-quiz-list-copies.ts';
