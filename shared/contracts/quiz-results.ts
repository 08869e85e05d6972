import * as v from 'valibot';
import {
  QUIZ_FEEDBACK_MAX_LENGTH,
  QUIZ_RESULT_FILTERS,
  QUIZ_RESULT_ORDERS,
  QUIZ_SUBMISSION_STATUSES,
} from '../vocabulary/courses.ts';
import { paginationBlockA } from './envelopes.ts';
import { idParam, idQuery, integer, pageQuery, perPageQuery, sqlDateTime } from './fields.ts';
import { memberSummarySchema } from './members.ts';
import { defineOperation } from './operation.ts';
import { TAGS, QUIZ_NOT_FOUND, INVALID, FORBIDDEN } from './quizzes.ts';

/** The administrators' side of quizzes: the results list with its statistics, and manual grading. */
const statistics = v.object({
  total_submissions: integer(),
  passed: integer(),
  failed: integer(),
  average_score: v.number(),
  average_time: v.number(),
});

export const listQuizResults = defineOperation({
  operationId: 'listQuizResults',
  summary: "A course's quiz submissions, for its administrators",
  description:
    "Community admins and the course's admins. Filters `lesson_id`, `user_id`, `status` (`all`, `passed`, " +
    '`failed`); `orderby` `submitted_at` (default), `score` or `user_name` (the display name when submitting; ' +
    'accents and case folded), then time, with `order` (default `desc`). `statistics` covers the filtered set ' +
    '(averages rounded to two decimals). Each row carries the student’s `xprofile` and the `lesson`; `status` ' +
    '(`in_progress` while an answer waits for a grader) is an addition to the contract’s row. Page 1 costs the ' +
    'same whatever the number of submissions; later pages cost in proportion to their offset.',
  tags: TAGS,
  params: v.object({ course_id: idParam() }),
  query: v.object({
    lesson_id: idQuery({ min: 1 }),
    user_id: idQuery({ min: 1 }),
    status: v.optional(
      v.picklist(QUIZ_RESULT_FILTERS, `must be one of ${QUIZ_RESULT_FILTERS.join(', ')}`),
      'all',
    ),
    page: pageQuery(),
    per_page: perPageQuery(20),
    orderby: v.optional(
      v.picklist(QUIZ_RESULT_ORDERS, `must be one of ${QUIZ_RESULT_ORDERS.join(', ')}`),
      'submitted_at',
    ),
    order: v.optional(v.picklist(['asc', 'desc'], 'must be asc or desc'), 'desc'),
  }),
  response: v.object({
    quiz_results: v.array(
      v.object({
        id: integer(),
        xprofile: v.nullable(memberSummarySchema),
        lesson: v.object({ id: integer(), title: v.string(), slug: v.string() }),
        score: integer(),
        total_questions: integer(),
        correct_answers: integer(),
        passed: v.boolean(),
        attempt_number: integer(),
        time_spent: integer(),
        status: v.picklist(QUIZ_SUBMISSION_STATUSES),
        submitted_at: sqlDateTime(),
      }),
    ),
    pagination: paginationBlockA(),
    statistics,
  }),
  errorEnvelope: 'bare',
  errors: [INVALID, FORBIDDEN, { ...QUIZ_NOT_FOUND, description: 'No such course.' }],
});

export const gradeQuizResult = defineOperation({
  operationId: 'gradeQuizResult',
  summary: 'Grade a quiz submission by hand',
  description:
    "Community admins and the course's admins. `{quiz_id}` is the submission id; one of another course is 404. " +
    'The submission becomes `graded` with `graded_at` and `graded_by`. `answers` maps question ids of answered ' +
    'questions to `{ "is_correct": bool, "points_earned": int }` (0..the question’s points); these grades ' +
    'recompute the score unless `score` is given, and `passed` follows the score unless given. The list and its ' +
    'statistics follow at once. A grading that makes the attempt pass completes the lesson for the student.',
  tags: TAGS,
  params: v.object({ course_id: idParam(), quiz_id: idParam() }),
  body: v.strictObject({
    score: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100))),
    passed: v.optional(v.boolean()),
    feedback: v.optional(v.pipe(v.string(), v.maxLength(QUIZ_FEEDBACK_MAX_LENGTH))),
    answers: v.optional(
      v.record(
        v.string(),
        v.strictObject({
          is_correct: v.boolean(),
          points_earned: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)),
        }),
      ),
    ),
  }),
  response: v.object({
    message: v.string(),
    quiz_result: v.object({
      id: integer(),
      score: integer(),
      passed: v.boolean(),
      feedback: v.string(),
      status: v.picklist(QUIZ_SUBMISSION_STATUSES),
      graded_at: sqlDateTime(),
      graded_by: v.object({ id: integer(), display_name: v.string() }),
    }),
  }),
  errorEnvelope: 'bare',
  errors: [
    {
      ...INVALID,
      description:
        'A grade for a question the attempt did not answer, or more points than the question is worth.',
    },
    FORBIDDEN,
    { ...QUIZ_NOT_FOUND, description: 'No such course, or no submission with this id in this course.' },
  ],
});
