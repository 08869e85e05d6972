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

/** Written answers (decisions.md "Quizzes"): exact-match short answers are capped lower than manually graded ones. */
export const EXACT_MATCH_ANSWER_MAX_LENGTH = 500;
export const WRITTEN_ANSWER_MAX_LENGTH = 10_000;
/** `time_spent` may exceed a quiz's `time_limit` by this much (network and clock slack) before it is refused. */
export const TIME_LIMIT_GRACE_SECONDS = 60;
/**
 * A quiz holds at most this many questions, and one submission's answers at most this many bytes in total, so an
 * attempt's stored answers always fit one item (DynamoDB's 400 KB) with room for the grades.
 */
export const QUIZ_MAX_QUESTIONS = 100;
export const QUIZ_ANSWERS_MAX_BYTES = 256 * 1024;
/** An instructor's feedback on an attempt. */
export const QUIZ_FEEDBACK_MAX_LENGTH = 10_000;

/** The administrators' results list (contract "Admin results"). */
export const QUIZ_RESULT_FILTERS = ['all', 'passed', 'failed'] as const;
export type QuizResultFilter = (typeof QUIZ_RESULT_FILTERS)[number];
export const QUIZ_RESULT_ORDERS = ['submitted_at', 'score', 'user_name'] as const;
export type QuizResultOrder = (typeof QUIZ_RESULT_ORDERS)[number];
