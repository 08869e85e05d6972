import * as v from 'valibot';
import {
  MEDIA_FILE_NAME_MAX_LENGTH,
  MEDIA_MAX_BYTES,
  MEDIA_OBJECT_SOURCES,
  MEDIA_TYPES,
} from '../../vocabulary/media.ts';
import { NOTIFICATION_TYPES } from '../../vocabulary/notifications.ts';
import { COMMUNITY_ROLES, HOST_ROLES, PROFILE_STATUSES, SPACE_ROLES } from '../../vocabulary/roles.ts';
import { COURSE_TYPES, LESSON_STATUSES } from '../../vocabulary/courses.ts';
import {
  COMMENT_MESSAGE_MAX_LENGTH,
  COMMENT_STATUSES,
  FEED_MESSAGE_MAX_LENGTH,
  FEED_STATUSES,
  FEED_TITLE_MAX_LENGTH,
} from '../../vocabulary/feeds.ts';
import {
  SPACE_LINK_FIELDS,
  SPACE_PRIVACIES,
  SPACE_STATUSES,
  SPACE_TITLE_MAX_LENGTH,
} from '../../vocabulary/spaces.ts';
import { TOPIC_COLOR_PATTERN, TOPIC_STATUSES, TOPIC_TITLE_MAX_LENGTH } from '../../vocabulary/topics.ts';
import { DEFAULT_COURSE_SETTINGS, QuizSchema } from '../courses/index.ts';
import { toStoredTimestamp } from '../dates.ts';
import { DEFAULT_SPACE_SETTINGS } from '../spaces/index.ts';
import { isValidSlug } from '../topics/index.ts';
import { isValidEmail, normalizeUsername, usernameProblem } from '../users/index.ts';

/**
 * The operator import file (spec/operator-cli.md "Import file"), as a strict schema: unknown fields are refused
 * so a typo never silently drops data. Field rules come from decisions.md. References (`ref`, user references,
 * `space`, `topics`, `feed`, `parent`, `object`) are only checked for shape here; run-import resolves them.
 */

const ref = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const userRef = ref;
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const timestamp = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const stored = toStoredTimestamp(dataset.value);
    if (stored !== undefined) return stored;
    addIssue({ message: 'must be an ISO 8601 date-time' });
    return NEVER;
  }),
);
const slug = v.pipe(
  v.string(),
  v.check(isValidSlug, 'must be lower-case a-z, 0-9 and -, at most 100 characters'),
);
const login = v.pipe(
  v.string(),
  v.check(
    (value) => usernameProblem(normalizeUsername(value)) === undefined,
    (issue) => `login "${String(issue.input)}" ${usernameProblem(normalizeUsername(String(issue.input)))}`,
  ),
  v.transform(normalizeUsername),
);
const email = v.pipe(
  v.string(),
  v.transform((value) => value.trim().toLowerCase()),
  v.check(isValidEmail, 'must be a valid e-mail address'),
);
const absoluteUrlOrEmpty = v.pipe(
  v.string(),
  v.check((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), 'must be an absolute http(s) URL'),
);

/** A partial settings object typed from the defaults: yes/no switches, link lists, otherwise strings. */
function settingsSchema(defaults: Record<string, unknown>) {
  const link = v.strictObject(SPACE_LINK_FIELDS);
  const entries = Object.entries(defaults).map(([key, value]) => {
    if (value === 'yes' || value === 'no') return [key, v.optional(v.picklist(['yes', 'no']))];
    if (Array.isArray(value)) return [key, v.optional(v.array(link))];
    return [key, v.optional(v.string())];
  });
  return v.strictObject(
    Object.fromEntries(entries) as Record<string, v.OptionalSchema<v.GenericSchema, undefined>>,
  );
}

const UserSchema = v.strictObject({
  ref,
  login,
  email,
  display_name: v.optional(text(250)),
  first_name: v.optional(text(100)),
  last_name: v.optional(text(100)),
  role: v.optional(v.picklist(HOST_ROLES)),
  community_role: v.optional(v.nullable(v.picklist(COMMUNITY_ROLES))),
  status: v.optional(v.picklist(PROFILE_STATUSES)),
  password: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.transform((value) => value.replace(/\s+/g, '')),
        v.regex(/^[A-Za-z0-9]{24}$/, 'must be 24 letters and digits'),
      ),
    ),
  ),
  bio: v.optional(
    v.pipe(
      v.string(),
      v.check((value) => Buffer.byteLength(value, 'utf8') <= 5000, 'must be at most 5000 bytes'),
    ),
  ),
  website: v.optional(absoluteUrlOrEmpty),
  created_at: v.optional(timestamp),
});

const MemberSchema = v.strictObject({ user: userRef, role: v.optional(v.picklist(SPACE_ROLES), 'member') });

const SpaceSchema = v.strictObject({
  ref,
  title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(SPACE_TITLE_MAX_LENGTH)),
  slug,
  privacy: v.optional(v.picklist(SPACE_PRIVACIES), 'public'),
  status: v.optional(v.picklist(SPACE_STATUSES), 'published'),
  description: v.optional(text(5000), ''),
  logo: v.optional(absoluteUrlOrEmpty, ''),
  cover_photo: v.optional(absoluteUrlOrEmpty, ''),
  serial: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  created_by: v.optional(userRef),
  settings: v.optional(settingsSchema(DEFAULT_SPACE_SETTINGS as unknown as Record<string, unknown>), {}),
  members: v.optional(v.array(MemberSchema), []),
  created_at: v.optional(timestamp),
});

const TopicSchema = v.strictObject({
  ref,
  title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(TOPIC_TITLE_MAX_LENGTH)),
  slug: v.optional(slug),
  status: v.optional(v.picklist(TOPIC_STATUSES), 'active'),
  parent: v.optional(v.nullable(ref), null),
  description: v.optional(text(5000), ''),
  color: v.optional(v.pipe(v.string(), v.regex(TOPIC_COLOR_PATTERN, 'must be #RGB or #RRGGBB'))),
  icon: v.optional(text(500), ''),
  serial: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  created_at: v.optional(timestamp),
});

const LessonSchema = v.strictObject({
  ref,
  title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(FEED_TITLE_MAX_LENGTH)),
  slug,
  status: v.optional(v.picklist(LESSON_STATUSES), 'published'),
  message: v.optional(text(FEED_MESSAGE_MAX_LENGTH), ''),
  quiz: v.optional(v.nullable(QuizSchema)),
  created_at: v.optional(timestamp),
});

/** A comment on one of the course's own lessons (`lesson` is a lesson ref of the same course). */
const CourseCommentSchema = v.strictObject({
  ref: v.optional(ref),
  user: userRef,
  lesson: ref,
  message: v.pipe(v.string(), v.minLength(1), v.maxLength(COMMENT_MESSAGE_MAX_LENGTH)),
  status: v.optional(v.picklist(COMMENT_STATUSES), 'published'),
  created_at: v.optional(timestamp),
});

/** A lesson of the course a student of the course has completed. */
const CompletionSchema = v.strictObject({ user: userRef, lesson: ref });

const CourseSchema = v.strictObject({
  ref,
  title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(SPACE_TITLE_MAX_LENGTH)),
  slug,
  status: v.optional(v.picklist(SPACE_STATUSES), 'published'),
  privacy: v.optional(v.picklist(SPACE_PRIVACIES), 'public'),
  description: v.optional(text(5000), ''),
  logo: v.optional(absoluteUrlOrEmpty, ''),
  cover_photo: v.optional(absoluteUrlOrEmpty, ''),
  serial: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  course_type: v.optional(v.picklist(COURSE_TYPES)),
  sequential_lesson_order: v.optional(v.boolean()),
  created_by: v.optional(userRef),
  settings: v.optional(settingsSchema(DEFAULT_COURSE_SETTINGS as unknown as Record<string, unknown>), {}),
  admins: v.optional(v.array(userRef), []),
  students: v.optional(v.array(userRef), []),
  lessons: v.optional(v.array(LessonSchema), []),
  comments: v.optional(v.array(CourseCommentSchema), []),
  completions: v.optional(v.array(CompletionSchema), []),
  created_at: v.optional(timestamp),
});

const FeedSchema = v.strictObject({
  ref: v.optional(ref),
  user: userRef,
  space: v.optional(v.nullable(ref), null),
  title: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(FEED_TITLE_MAX_LENGTH)), ''),
  slug: v.optional(slug),
  message: v.pipe(v.string(), v.minLength(1), v.maxLength(FEED_MESSAGE_MAX_LENGTH)),
  topics: v.optional(v.array(ref), []),
  status: v.optional(v.picklist(FEED_STATUSES), 'published'),
  created_at: v.optional(timestamp),
});

/** A comment is on a feed of the file (`feed`) or on a lesson of the file (`course` + `lesson`). */
const CommentSchema = v.pipe(
  v.strictObject({
    ref: v.optional(ref),
    user: userRef,
    feed: v.optional(ref),
    course: v.optional(ref),
    lesson: v.optional(ref),
    parent: v.optional(v.nullable(ref), null),
    message: v.pipe(v.string(), v.minLength(1), v.maxLength(COMMENT_MESSAGE_MAX_LENGTH)),
    status: v.optional(v.picklist(COMMENT_STATUSES), 'published'),
    created_at: v.optional(timestamp),
  }),
  v.check(
    (c) =>
      (c.feed !== undefined) !== (c.course !== undefined && c.lesson !== undefined) &&
      (c.course === undefined) === (c.lesson === undefined),
    'a comment names either `feed` or both `course` and `lesson`',
  ),
);

/** `object` names an item of the file by `object_type` (feed, comment, space, course, topic, user) or is an id. */
export const NOTIFICATION_OBJECT_TYPES = ['feed', 'comment', 'space', 'course', 'topic', 'user'] as const;

const NotificationSchema = v.strictObject({
  user: userRef,
  type: v.picklist(NOTIFICATION_TYPES),
  actor: v.optional(v.nullable(userRef), null),
  title: v.optional(text(500), ''),
  message: v.optional(text(COMMENT_MESSAGE_MAX_LENGTH), ''),
  action_url: v.optional(text(2000), ''),
  object_type: v.optional(v.pipe(v.string(), v.maxLength(50)), ''),
  object: v.optional(v.nullable(v.union([ref, v.pipe(v.number(), v.integer(), v.minValue(1))])), null),
  is_read: v.optional(v.boolean(), false),
  read_at: v.optional(v.nullable(timestamp), null),
  created_at: v.optional(timestamp),
});

/** A media record (issue 11 uploads them; the import lists existing files): `object_id` is an id or a file ref. */
const MediaSchema = v.strictObject({
  ref: v.optional(ref),
  user: userRef,
  file_name: v.pipe(v.string(), v.minLength(1), v.maxLength(MEDIA_FILE_NAME_MAX_LENGTH)),
  file_type: v.picklist(MEDIA_TYPES),
  file_size: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MEDIA_MAX_BYTES)),
  object_source: v.optional(v.nullable(v.picklist(MEDIA_OBJECT_SOURCES)), null),
  object_id: v.optional(v.nullable(v.union([ref, v.pipe(v.number(), v.integer(), v.minValue(1))])), null),
  file_url: v.optional(absoluteUrlOrEmpty, ''),
  /** Where its thumbnail is; default for an image: the image itself (the contract gives images a thumbnail). */
  thumbnail_url: v.optional(absoluteUrlOrEmpty, ''),
  created_at: v.optional(timestamp),
});

export const ImportFileSchema = v.strictObject({
  users: v.optional(v.array(UserSchema), []),
  spaces: v.optional(v.array(SpaceSchema), []),
  topics: v.optional(v.array(TopicSchema), []),
  courses: v.optional(v.array(CourseSchema), []),
  feeds: v.optional(v.array(FeedSchema), []),
  comments: v.optional(v.array(CommentSchema), []),
  notifications: v.optional(v.array(NotificationSchema), []),
  media: v.optional(v.array(MediaSchema), []),
});

export type ImportFile = v.InferOutput<typeof ImportFileSchema>;
export type ImportUser = ImportFile['users'][number];
export type ImportSpace = ImportFile['spaces'][number];
export type ImportTopic = ImportFile['topics'][number];
export type ImportCourse = ImportFile['courses'][number];
export type ImportLesson = ImportCourse['lessons'][number];
export type ImportCourseComment = ImportCourse['comments'][number];
export type ImportCompletion = ImportCourse['completions'][number];
export type ImportFeed = ImportFile['feeds'][number];
export type ImportComment = ImportFile['comments'][number];
export type ImportNotification = ImportFile['notifications'][number];
export type ImportMedia = ImportFile['media'][number];
