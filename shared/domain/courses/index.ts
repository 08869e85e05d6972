/** The courses domain's public surface: what other domains may use (README, import rules). */
export * from './course-item.ts';
export { type QuizInput, QuizSchema } from './quiz-schema.ts';
