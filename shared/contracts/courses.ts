import * as v from 'valibot';
import { COMMENT_MESSAGE_MAX_LENGTH } from '../vocabulary/feeds.ts';
import { paginatorB } from './envelopes.ts';
import { commentSchema, positiveInteger, text } from './feed-schemas.ts';
import { cursorQuery, idParam, integer, pageQuery, perPageQuery, sqlDateTime } from './fields.ts';
import { named } from './openapi-metadata.ts';
import { defineOperation, errorOutcome, missingParam } from './operation.ts';
import { hostUserSummarySchema } from './members.ts';
import { spaceCoreEntries, spaceLinkSchema } from './space-fields.ts';

/**
 * Course administration and lesson progress: contract "Course administration", decisions.md "Invitations, course
 * admin, search, settings"; lesson progress and lesson comments are this product's own routes (issue 12).
 */
const ADMIN_TAGS = ['Course administration'];
const LESSON_TAGS = ['Lessons'];

const INVALID = errorOutcome(
  400,
  'rest_invalid_param',
  'A parameter is malformed or out of range; `data.params` names it.',
);
const COURSE_NOT_FOUND = errorOutcome(
  404,
  'not_found',
  'No course has this id (a space that is not a course counts as none).',
);
const LESSON_NOT_FOUND = errorOutcome(
  404,
  'not_found',
  'No course has this id, or the lesson is not a published lesson of this course.',
);
const NOT_COURSE_ADMIN = errorOutcome(
  403,
  'rest_forbidden',
  'The caller is not an admin of this course (space role `admin` in the course) and holds no role that acts as ' +
    'one everywhere (host `manage_options`, community admin, the global `course_admin` role).',
);
const NOT_PARTICIPANT = errorOutcome(
  403,
  'rest_forbidden',
  'The caller is neither an enrolled student nor an admin of this course.',
);

const courseParams = v.object({ course_id: idParam() });
const lessonParams = v.object({ course_id: idParam(), lesson_id: idParam() });
const pageQueryOf = () => v.object({ page: pageQuery(), per_page: perPageQuery(20), cursor: cursorQuery() });

const yesNo = v.picklist(['yes', 'no']);

const courseSettingsSchema = v.object({
  can_request_join: yesNo,
  course_details: v.string(),
  course_layout: v.string(),
  course_type: v.string(),
  custom_lock_screen: yesNo,
  disable_comments: yesNo,
  emoji: v.string(),
  hide_instructor_view: yesNo,
  hide_members_count: yesNo,
  layout_style: v.string(),
  links: v.array(spaceLinkSchema),
  members_page_status: v.string(),
  og_image: v.string(),
  public_lesson_view: yesNo,
  restricted_post_only: yesNo,
  sequential_lesson_order: yesNo,
  shape_svg: v.string(),
  show_instructor_students_count: yesNo,
  show_sidebar: yesNo,
  topic_required: yesNo,
});

const adminCourseSchema = v.pipe(
  v.object({
    ...spaceCoreEntries,
    type: v.literal('course'),
    course_type: v.string(),
    created_at: sqlDateTime(),
    updated_at: sqlDateTime(),
    owner: v.nullable(hostUserSummarySchema),
    category_ids: v.array(v.record(v.string(), v.unknown())),
    lockscreen: v.array(v.record(v.string(), v.unknown())),
    settings: courseSettingsSchema,
    students_count: integer(),
    completed_students: v.pipe(
      v.optional(integer()),
      v.description('Only when the course has students: students who completed every published lesson.'),
    ),
    overAllProgress: v.pipe(
      v.optional(v.number()),
      v.description(
        'Only when the course has students: completed lessons over (students × published lessons), in percent ' +
          '0..100, rounded up. Maintained by every completion; no student is read to compute it.',
      ),
    ),
  }),
  named('AdminCourse'),
);

const lessonReferenceSchema = v.object({ id: integer(), title: v.string(), slug: v.string() });

const courseCommentSchema = v.pipe(
  v.object({ ...commentSchema.entries, course_id: integer(), lesson: v.nullable(lessonReferenceSchema) }),
  named('CourseComment'),
);
const lessonCommentSchema = v.pipe(commentSchema, named('LessonComment'));

export const getAdminCourse = defineOperation({
  operationId: 'getAdminCourse',
  summary: 'One course in its administrative form',
  description:
    'The course with `owner`, `category_ids`, `lockscreen`, every course `settings` key, `students_count` and, ' +
    'when it has students, `completed_students` and `overAllProgress`, all from maintained counters. Dates are ' +
    "`YYYY-MM-DD HH:MM:SS` (UTC). `owner.user_email` is the owner's address: every caller who may read this " +
    'administers the course.',
  tags: ADMIN_TAGS,
  params: courseParams,
  response: v.object({ course: adminCourseSchema }),
  errors: [INVALID, NOT_COURSE_ADMIN, COURSE_NOT_FOUND],
});

export const listCourseComments = defineOperation({
  operationId: 'listCourseComments',
  summary: 'Every comment on the lessons of a course, newest first (paginator B)',
  description:
    'Each row is a comment with its author (`xprofile`, no e-mail address), the caller’s `liked` and the trimmed ' +
    '`lesson` it is on. Pending comments are listed only while content moderation is on (`features` setting ' +
    '`content_moderation`) and the caller moderates the course. Dates are ISO 8601 (UTC). `next_page_url` ' +
    'carries an opaque `cursor`.',
  tags: ADMIN_TAGS,
  params: courseParams,
  query: pageQueryOf(),
  response: v.object({ comments: paginatorB(courseCommentSchema, { fromToMayBeString: true }) }),
  errors: [INVALID, NOT_COURSE_ADMIN, COURSE_NOT_FOUND],
});

export const setLessonCompletion = defineOperation({
  operationId: 'setLessonCompletion',
  summary: 'Mark a lesson completed or incomplete (lesson progress)',
  description:
    'By an active student of the course. Idempotent: the state the lesson is already in changes nothing. A ' +
    'lesson with a quiz is completed only by passing its quiz. In a course with `sequential_lesson_order` a ' +
    'lesson can be completed only after every earlier published lesson. Course counters (`completed_students`, ' +
    '`overAllProgress`) follow in the same transaction.',
  tags: LESSON_TAGS,
  params: lessonParams,
  body: v.strictObject({ state: v.picklist(['completed', 'incomplete'], 'must be completed or incomplete') }),
  response: v.object({
    message: v.string(),
    data: v.object({
      course_id: integer(),
      lesson_id: integer(),
      state: v.picklist(['completed', 'incomplete']),
      completed_lessons: v.pipe(
        v.array(integer()),
        v.description('The published lessons the student has completed.'),
      ),
      total_lessons: integer(),
      progress: v.pipe(integer(), v.description('Percent of the published lessons completed, rounded up.')),
      course_completed: v.boolean(),
    }),
  }),
  errors: [
    INVALID,
    missingParam('state'),
    {
      status: 400,
      code: 'lesson_locked',
      description:
        'Sequential course: an earlier published lesson is not completed (`data.required_lesson_id` names it).',
    },
    {
      status: 400,
      code: 'quiz_required',
      description: 'The lesson has a quiz: passing it completes the lesson.',
    },
    {
      status: 403,
      code: 'rest_forbidden',
      description: 'The caller is not an active student of this course.',
    },
    LESSON_NOT_FOUND,
  ],
});

export const listLessonComments = defineOperation({
  operationId: 'listLessonComments',
  summary: 'Comments of a lesson, oldest first (paginator B)',
  description:
    'Published comments of a lesson, for the course’s students and admins; rows as on feeds (`xprofile`, ' +
    '`liked`). Dates are ISO 8601 (UTC). `next_page_url` carries an opaque `cursor`.',
  tags: LESSON_TAGS,
  params: lessonParams,
  query: pageQueryOf(),
  response: v.object({ comments: paginatorB(lessonCommentSchema) }),
  errors: [INVALID, NOT_PARTICIPANT, LESSON_NOT_FOUND],
});

export const createLessonComment = defineOperation({
  operationId: 'createLessonComment',
  summary: 'Comment on a lesson, or reply to one of its comments',
  description:
    'By a student or admin of the course. `parent_id` names a comment of the same lesson. While content ' +
    'moderation is on, comments of people who cannot moderate the course are stored `pending`. A course with ' +
    '`disable_comments` refuses comments (403). A published comment notifies the replied-to comment’s author ' +
    '(`new_reply`) and mentioned students and admins of the course (`mention`), never the commenter.',
  tags: LESSON_TAGS,
  params: lessonParams,
  body: v.strictObject({
    message: text(COMMENT_MESSAGE_MAX_LENGTH),
    parent_id: v.optional(v.nullable(positiveInteger('must be a comment id (a positive integer) or null'))),
  }),
  response: v.object({ message: v.string(), comment: lessonCommentSchema }),
  successStatus: 201,
  errors: [
    INVALID,
    missingParam('message'),
    {
      status: 403,
      code: 'rest_forbidden',
      description:
        'The caller is neither an enrolled student nor an admin of this course, or comments are disabled.',
    },
    LESSON_NOT_FOUND,
  ],
});
