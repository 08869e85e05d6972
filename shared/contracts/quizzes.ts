import * as v from 'valibot';
import {
  EXACT_MATCH_ANSWER_MAX_LENGTH,
  QUIZ_ANSWERS_MAX_BYTES,
  QUIZ_SUBMISSION_STATUSES,
  TIME_LIMIT_GRACE_SECONDS,
  WRITTEN_ANSWER_MAX_LENGTH,
} from '../vocabulary/courses.ts';
import { boolQueryWithDefault, idParam, integer, sqlDateTime } from './fields.ts';
import { defineOperation, errorOutcome } from './operation.ts';

/**
 * Quizzes (PRO): contract "Quizzes", decisions.md "Quizzes". Every quiz route answers errors, validation errors
 * and 401s included, with only `code` and `message` (`errorEnvelope: 'bare'`).
 */
export const TAGS = ['Quizzes'];

export const QUIZ_NOT_FOUND = errorOutcome(
  404,
  'quiz_not_found',
  'No such course, no such lesson in it, or the lesson has no quiz.',
);
export const INVALID = errorOutcome(400, 'rest_invalid_param', 'A parameter is out of range or malformed.');
export const FORBIDDEN = errorOutcome(
  403,
  'rest_forbidden',
  'The caller is neither a community admin nor an admin of this course.',
);

const lessonParams = v.object({ course_id: idParam(), lesson_id: idParam() });

const answerValue = v.union(
  [v.string(), v.array(v.string())],
  'must be a string (one option id or a written answer) or an array of option ids',
);

/** A per-question result (contract "Quiz question"); unanswered questions are not listed. */
const detailedResultEntries = {
  question_id: v.string(),
  question: v.string(),
  your_answer: answerValue,
  correct_answer: v.optional(v.nullable(answerValue)),
  is_correct: v.boolean(),
  points_earned: integer(),
  points_possible: integer(),
};
/** On submit the per-question results carry the question's `explanation`; on result reads they do not. */
const submittedDetailedResult = v.object({ ...detailedResultEntries, explanation: v.string() });
const detailedResult = v.object(detailedResultEntries);

/** How an attempt scored: in the submission's answer and in the stored result. */
const attemptScoreEntries = {
  score: integer(),
  total_questions: integer(),
  correct_answers: integer(),
  passed: v.boolean(),
  passing_score: integer(),
  attempt_number: integer(),
};

const submitResultById = v.object({
  message: v.string(),
  quiz_result: v.object({
    id: integer(),
    ...attemptScoreEntries,
    feedback: v.string(),
    can_retake: v.boolean(),
    next_lesson_unlocked: v.boolean(),
    submitted_at: sqlDateTime(),
  }),
  detailed_results: v.array(submittedDetailedResult),
});

/** The second result shape (contract "Quiz submission", last paragraph), for answers keyed by question slug. */
const submitResultBySlug = v.object({
  message: v.string(),
  result: v.object({
    content_type: v.literal('quiz'),
    id: integer(),
    message: v.record(v.string(), v.object({ is_correct: v.boolean(), user_answer: answerValue })),
    meta: v.object({ attempts: integer(), correct_answers: integer(), total_questions: integer() }),
    parent_id: integer(),
    post_id: integer(),
    score: v.string(),
    status: v.picklist(QUIZ_SUBMISSION_STATUSES),
    type: v.literal('quiz'),
    updated_at: sqlDateTime(),
    user_id: integer(),
  }),
});

export const submitQuiz = defineOperation({
  operationId: 'submitQuiz',
  summary: 'Submit an attempt at a lesson quiz',
  description:
    'For students enrolled in the course (course admins count as enrolled); every submission is a new numbered ' +
    'attempt and all attempts are kept. `answers` is keyed either by question `id` (response: `quiz_result` with ' +
    '`detailed_results`) or by question `slug` (response: `result`, the second shape, for clients of the original ' +
    'plugin; its `status` is the submission status); a mix of both is 400. Answers name options by option `id`; ' +
    'a `true_false` answer is `"true"` or `"false"`; `multiple_select` takes an array (a lone string counts as one ' +
    'option). An empty string or array leaves the question unanswered: it earns nothing and is not listed. ' +
    `Written answers: at most ${EXACT_MATCH_ANSWER_MAX_LENGTH} characters where graded by exact match (trimmed, ` +
    `case-insensitive, inner whitespace collapsed), at most ${WRITTEN_ANSWER_MAX_LENGTH} where a grader grades them ` +
    `(the attempt is then \`in_progress\`); all answers at most ${QUIZ_ANSWERS_MAX_BYTES / 1024} KB. Score = ` +
    'round(100 × points earned ÷ points of all questions); `passed` = score ≥ `passing_score`; `multiple_select` ' +
    `earns nothing unless exactly right. \`time_spent\` above \`time_limit\` + ${TIME_LIMIT_GRACE_SECONDS} s is ` +
    'refused. `next_lesson_unlocked`: the next published lesson exists and is open (passed, or the course does not ' +
    'require passing). A pass records the lesson as completed for course progress and notifies the student ' +
    '(`lesson_complete`). `correct_answer` is left out when the quiz does not show correct answers.',
  tags: TAGS,
  params: lessonParams,
  body: v.strictObject({
    answers: v.record(v.string(), answerValue),
    time_spent: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000_000)), 0),
  }),
  response: v.union([submitResultById, submitResultBySlug]),
  successStatus: 201,
  errorEnvelope: 'bare',
  errors: [
    {
      status: 400,
      code: 'invalid_answers',
      description:
        'An empty `answers` object, or required questions unanswered (the message lists their ids).',
    },
    {
      status: 400,
      code: 'rest_invalid_param',
      description:
        'An answer naming no option of its question or a question the quiz lacks, mixed id and slug keys, an ' +
        'over-long written answer, or `time_spent` over the time limit.',
    },
    {
      status: 403,
      code: 'course_not_enrolled',
      description: 'The caller is not enrolled in the course (and not a course admin).',
    },
    {
      status: 400,
      code: 'lesson_locked',
      description:
        'A student’s submission to a lesson of a `sequential_lesson_order` course while an earlier published ' +
        'lesson is not completed; nothing is stored.',
    },
    { status: 403, code: 'lesson_not_published', description: 'The lesson is not published.' },
    { status: 403, code: 'max_attempts_reached', description: 'All `max_attempts` attempts are used.' },
    QUIZ_NOT_FOUND,
    {
      status: 409,
      code: 'already_submitted',
      description: 'The quiz was already submitted and retakes are not allowed.',
    },
  ],
});

const positiveAttempt = v.pipe(
  v.string(),
  v.regex(/^\d{1,9}$/, 'must be a positive integer or latest'),
  v.transform(Number),
  v.minValue(1, 'must be a positive integer or latest'),
);

export const getQuizResult = defineOperation({
  operationId: 'getQuizResult',
  summary: "The caller's result of one attempt at a lesson quiz",
  description:
    "Any authenticated caller; it answers the caller's own attempts only. `attempt` is a positive attempt number " +
    'or `latest` (default). No such course, lesson or quiz, or no such attempt yet: 404 `quiz_not_found`. ' +
    '`include_answers=false` leaves `detailed_results` out; `correct_answer` is left out when the quiz does not ' +
    'show correct answers. `feedback` is the grader’s, or an automatic message for the attempt’s state.',
  tags: TAGS,
  params: lessonParams,
  query: v.object({
    attempt: v.optional(
      v.union([v.literal('latest'), positiveAttempt], 'must be a positive integer or latest'),
      'latest',
    ),
    include_answers: boolQueryWithDefault(true),
  }),
  response: v.object({
    quiz_result: v.object({
      id: integer(),
      user_id: integer(),
      course_id: integer(),
      lesson_id: integer(),
      ...attemptScoreEntries,
      time_spent: integer(),
      status: v.picklist(QUIZ_SUBMISSION_STATUSES),
      submitted_at: sqlDateTime(),
      graded_at: v.nullable(sqlDateTime()),
      feedback: v.string(),
    }),
    quiz_settings: v.object({
      max_attempts: integer(),
      attempts_used: integer(),
      can_retake: v.boolean(),
      time_limit: integer(),
      show_correct_answers: v.boolean(),
      randomize_questions: v.boolean(),
    }),
    detailed_results: v.optional(v.array(detailedResult)),
  }),
  errorEnvelope: 'bare',
  errors: [
    INVALID,
    { ...QUIZ_NOT_FOUND, description: `${QUIZ_NOT_FOUND.description} Or no such attempt yet.` },
  ],
});
