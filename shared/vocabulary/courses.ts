/** Course, lesson and quiz vocabularies (contract "Quiz question", decisions.md "Quizzes"). */

/** How a course releases its lessons (the original platform's `course_type`). */
export const COURSE_TYPES = ['self_paced', 'structured', 'scheduled'] as const;
export type CourseType = (typeof COURSE_TYPES)[number];

export const LESSON_STATUSES = ['published', 'draft'] as const;
export type LessonStatus = (typeof LESSON_STATUSES)[number];

export const QUESTION_TYPES = ['multiple_choice', 'multiple_select', 'true_false', 'short_answer'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** `in_progress` while an answer waits for a grader, `completed` when all was auto-graded, `graded` after a grader. */
export const QUIZ_SUBMISSION_STATUSES = ['in_progress', 'completed', 'graded'] as const;
export type QuizSubmissionStatus = (typeof QUIZ_SUBMISSION_STATUSES)[number];
