/**
 * Every key string of the table comes from here; no other module spells a key. Sections follow the entities.
 *
 * Conventions (invariants the access patterns rely on):
 * - Ids are integers from the sequence counters; in sort keys they are zero-padded to 12 digits so that string
 *   order equals numeric order.
 * - Timestamps in sort keys are UTC ISO strings (`2026-01-02T03:04:05.000Z`), which sort chronologically.
 * - A `<x>#<id>` sort key suffix makes equal timestamps unique and gives a stable order.
 * - Uniqueness guards are items of their own (`USERNAME#…`, `EMAIL#…`, `TOPICSLUG#…`), written in the same
 *   transaction as the thing they guard with `attribute_not_exists(pk)`.
 */

export interface ItemKey {
  readonly pk: string;
  readonly sk: string;
}

export const pad = (id: number): string => String(id).padStart(12, '0');

// ---- Sequences (integer id counters) --------------------------------------------------------------------

/** Sequences: spaces and courses share `space`; feeds and lessons share `post` (operator-cli.md). */
export type SequenceName =
  | 'user'
  | 'space'
  | 'post'
  | 'comment'
  | 'topic'
  | 'notification'
  | 'media'
  | 'quiz_submission'
  | 'invitation';

export const sequenceKey = (name: SequenceName): ItemKey => ({ pk: `SEQ#${name}`, sk: 'SEQ' });

// ---- Users, credentials, preferences ----------------------------------------------------------------------

export const userKey = (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'USER' });
export const usernameGuardKey = (username: string): ItemKey => ({
  pk: `USERNAME#${username.toLowerCase()}`,
  sk: 'USERNAME',
});
export const emailGuardKey = (email: string): ItemKey => ({
  pk: `EMAIL#${email.toLowerCase()}`,
  sk: 'EMAIL',
});

/** Application passwords live in the user's partition: `Query(pk = USER#id, begins_with(sk, APPPW#))`. */
export const appPasswordKey = (userId: number, uuid: string): ItemKey => ({
  pk: `USER#${userId}`,
  sk: `APPPW#${uuid}`,
});
export const appPasswordPrefix = 'APPPW#';

export const tokenKey = (tokenId: string): ItemKey => ({ pk: `TOKEN#${tokenId}`, sk: 'TOKEN' });

export const notificationPreferencesKey = (userId: number): ItemKey => ({
  pk: `USER#${userId}`,
  sk: 'PREFS#NOTIFICATIONS',
});

/** GSI3: user search by lower-cased prefix of display name, login or e-mail; one search item per field. */
export const userSearchKey = (userId: number, field: 'name' | 'login' | 'email'): ItemKey => ({
  pk: `USER#${userId}`,
  sk: `SEARCH#${field}`,
});
export const userSearchIndex = (value: string, userId: number) => ({
  gsi3pk: 'USERSEARCH',
  gsi3sk: `${value.toLowerCase()}#${pad(userId)}`,
});

export const followKey = (followedId: number, followerId: number): ItemKey => ({
  pk: `USER#${followedId}`,
  sk: `FOLLOWER#${pad(followerId)}`,
});

// ---- Spaces, courses, memberships -------------------------------------------------------------------------

export const spaceKey = (spaceId: number): ItemKey => ({ pk: `SPACE#${spaceId}`, sk: 'SPACE' });
export const spaceSlugGuardKey = (slug: string): ItemKey => ({ pk: `SPACESLUG#${slug}`, sk: 'SPACESLUG' });

export const membershipKey = (spaceId: number, userId: number): ItemKey => ({
  pk: `SPACE#${spaceId}`,
  sk: `MEMBER#${pad(userId)}`,
});
export const membershipPrefix = 'MEMBER#';
/** GSI1: the spaces a user belongs to, in joining order. */
export const membershipByUserIndex = (userId: number, joinedAt: string, spaceId: number) => ({
  gsi1pk: `USER#${userId}#SPACES`,
  gsi1sk: `${joinedAt}#${pad(spaceId)}`,
});
/** GSI2: the members of a space with one role (space admins and moderators for `space_join`). */
export const membershipByRoleIndex = (spaceId: number, role: string, userId: number) => ({
  gsi2pk: `SPACE#${spaceId}#ROLE#${role}`,
  gsi2sk: pad(userId),
});

/** Aggregates of a space (members_count, posts_count) maintained on write. */
export const spaceStatsKey = (spaceId: number): ItemKey => ({ pk: `SPACE#${spaceId}`, sk: 'STATS' });

// ---- Topics ---------------------------------------------------------------------------------------------

export const topicKey = (topicId: number): ItemKey => ({ pk: `TOPIC#${topicId}`, sk: 'TOPIC' });
export const topicSlugGuardKey = (slug: string): ItemKey => ({ pk: `TOPICSLUG#${slug}`, sk: 'TOPICSLUG' });
/** GSI1: all topics in display order (serial, then id). */
export const topicOrderIndex = (serial: number, topicId: number) => ({
  gsi1pk: 'TOPICS',
  gsi1sk: `${pad(serial)}#${pad(topicId)}`,
});

// ---- Feeds (posts), lessons, comments, reactions ----------------------------------------------------------

export const postKey = (postId: number): ItemKey => ({ pk: `POST#${postId}`, sk: 'POST' });
/** GSI1: feeds of an author, newest first. */
export const postByAuthorIndex = (userId: number, createdAt: string, postId: number) => ({
  gsi1pk: `USER#${userId}#POSTS`,
  gsi1sk: `${createdAt}#${pad(postId)}`,
});
/** GSI2: feeds of a space (or the global feed, space 0), newest first. */
export const postBySpaceIndex = (spaceId: number | null, createdAt: string, postId: number) => ({
  gsi2pk: `SPACE#${spaceId ?? 0}#POSTS`,
  gsi2sk: `${createdAt}#${pad(postId)}`,
});
/** Lessons of a course in order; lessons are posts of type `course_lesson` in the course's partition. */
export const lessonOrderKey = (courseId: number, position: number, lessonId: number): ItemKey => ({
  pk: `SPACE#${courseId}`,
  sk: `LESSON#${pad(position)}#${pad(lessonId)}`,
});
export const lessonOrderPrefix = 'LESSON#';
export const quizKey = (lessonId: number): ItemKey => ({ pk: `POST#${lessonId}`, sk: 'QUIZ' });

/** Topic assignment of a feed; GSI3 lists the feeds carrying a topic, newest first. */
export const postTopicKey = (postId: number, topicId: number): ItemKey => ({
  pk: `POST#${postId}`,
  sk: `TOPIC#${pad(topicId)}`,
});
export const postTopicPrefix = 'TOPIC#';
export const postByTopicIndex = (topicId: number, createdAt: string, postId: number) => ({
  gsi3pk: `TOPIC#${topicId}#POSTS`,
  gsi3sk: `${createdAt}#${pad(postId)}`,
});

export const commentKey = (commentId: number): ItemKey => ({ pk: `COMMENT#${commentId}`, sk: 'COMMENT' });
/** GSI1: comments of an author, newest first. */
export const commentByAuthorIndex = (userId: number, createdAt: string, commentId: number) => ({
  gsi1pk: `USER#${userId}#COMMENTS`,
  gsi1sk: `${createdAt}#${pad(commentId)}`,
});
/** GSI2: comments of a feed, oldest first when read forward. */
export const commentByPostIndex = (postId: number, createdAt: string, commentId: number) => ({
  gsi2pk: `POST#${postId}#COMMENTS`,
  gsi2sk: `${createdAt}#${pad(commentId)}`,
});
/** GSI3: comments on any lesson of a course, newest first (course administration). */
export const commentByCourseIndex = (courseId: number, createdAt: string, commentId: number) => ({
  gsi3pk: `COURSE#${courseId}#COMMENTS`,
  gsi3sk: `${createdAt}#${pad(commentId)}`,
});

export const reactionKey = (objectType: 'post' | 'comment', objectId: number, userId: number): ItemKey => ({
  pk: `${objectType === 'post' ? 'POST' : 'COMMENT'}#${objectId}`,
  sk: `REACTION#${pad(userId)}`,
});

// ---- Settings ---------------------------------------------------------------------------------------------

export type SettingsGroup = 'general' | 'privacy' | 'topics_config' | 'features';
export const settingsKey = (group: SettingsGroup): ItemKey => ({ pk: 'SETTINGS', sk: group.toUpperCase() });

// ---- Aggregates maintained on write (ACCESS_PATTERNS.md "Aggregate items") ---------------------------------

/**
 * Per-user counters, flat attributes updated with ADD in the transaction that changes the counted item:
 * `feeds_published`, `feeds_published_space:<spaceId>`, `comments_published`, `comments_published_space:<spaceId>`,
 * `media_total`, `media_type:<mime>`, `media_source:<object_source>`, `followers_count`, `followings_count`.
 */
export const userStatsKey = (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'STATS' });

/**
 * Course aggregates live on the space stats item of the course (courses are spaces): `students_count`,
 * `completed_students`, `total_completions`, `published_lessons_count`, `lesson_comments_published`,
 * `lesson_comments_pending`, `quiz_submissions_count`.
 */
export const courseStatsKey = (courseId: number): ItemKey => spaceStatsKey(courseId);

/**
 * Topic totals in one item: `total`, `status:<active|inactive>`, `parent:<id>`, `parent:<id>:status:<s>`
 * (parent 0 = top level); `posts_count` itself lives on each topic item.
 */
export const topicStatsKey = (): ItemKey => ({ pk: 'TOPICS', sk: 'STATS' });

// ---- Topics: filtered lists -------------------------------------------------------------------------------

/** GSI2: topics under one parent (0 = top level) in display order (serial, id). */
export const topicByParentIndex = (parentId: number | null, serial: number, topicId: number) => ({
  gsi2pk: `TOPICS#PARENT#${parentId ?? 0}`,
  gsi2sk: `${pad(serial)}#${pad(topicId)}`,
});
/** GSI3: topics with one status in display order (serial, id). */
export const topicByStatusIndex = (status: 'active' | 'inactive', serial: number, topicId: number) => ({
  gsi3pk: `TOPICS#STATUS#${status}`,
  gsi3sk: `${pad(serial)}#${pad(topicId)}`,
});

// ---- Feeds: timeline ----------------------------------------------------------------------------------------

/**
 * GSI3 on the post item (the topic links carry their own GSI3 key): every published feed, newest first (sparse:
 * drafts, pending and scheduled feeds and lessons do not carry it). `GET /feeds` without space or topic filter.
 */
export const postTimelineIndex = (createdAt: string, postId: number) => ({
  gsi3pk: 'FEEDS',
  gsi3sk: `${createdAt}#${pad(postId)}`,
});

// ---- Quiz submissions (PRO) ---------------------------------------------------------------------------------

/**
 * A submission is stored at its attempt slot: Put with `attribute_not_exists(pk)`, so attempt N of a student for a
 * lesson is taken exactly once, and attempts 1..max_attempts bound the count under any concurrency. The student's
 * attempts for one lesson: `Query(pk, begins_with(sk, quizAttemptLessonPrefix(lessonId)))` (consistent read;
 * descending + Limit 1 = latest); all of the student's submissions in the course: `begins_with(sk, LESSON#)`.
 */
export const quizAttemptKey = (
  courseId: number,
  userId: number,
  lessonId: number,
  attempt: number,
): ItemKey => ({
  pk: `COURSE#${courseId}#USER#${userId}#QUIZ`,
  sk: `LESSON#${pad(lessonId)}#ATTEMPT#${pad(attempt)}`,
});
export const quizAttemptLessonPrefix = (lessonId: number): string => `LESSON#${pad(lessonId)}#ATTEMPT#`;
export const quizAttemptPrefix = 'LESSON#';
/** GSI1 (on the attempt item): quiz submissions of a course, newest first. */
export const quizSubmissionByCourseIndex = (courseId: number, submittedAt: string, submissionId: number) => ({
  gsi1pk: `COURSE#${courseId}#QUIZSUBS`,
  gsi1sk: `${submittedAt}#${pad(submissionId)}`,
});
/** GSI2 (on the attempt item): quiz submissions of a course with one result, newest first; re-keyed on grading. */
export const quizSubmissionByResultIndex = (
  courseId: number,
  passed: boolean,
  submittedAt: string,
  submissionId: number,
) => ({
  gsi2pk: `COURSE#${courseId}#QUIZSUBS#${passed ? 'PASSED' : 'FAILED'}`,
  gsi2sk: `${submittedAt}#${pad(submissionId)}`,
});
/** GSI3 (on the attempt item): quiz submissions of one lesson, newest first. */
export const quizSubmissionByLessonIndex = (lessonId: number, submittedAt: string, submissionId: number) => ({
  gsi3pk: `LESSON#${lessonId}#QUIZSUBS`,
  gsi3sk: `${submittedAt}#${pad(submissionId)}`,
});
/**
 * Id pointer (the grading path's `{quiz_id}` is the submission id) → the attempt key; it also carries a copy of the
 * list-row fields and two more orderings, kept in step by the same transactions as the attempt item.
 */
export const quizSubmissionKey = (submissionId: number): ItemKey => ({
  pk: `QUIZSUB#${submissionId}`,
  sk: 'QUIZSUB',
});
/** GSI1 (on the id pointer): quiz submissions of a course by score (then time); re-keyed on grading. */
export const quizSubmissionByScoreIndex = (
  courseId: number,
  score: number,
  submittedAt: string,
  submissionId: number,
) => ({
  gsi1pk: `COURSE#${courseId}#QUIZSUBS#BYSCORE`,
  gsi1sk: `${String(score).padStart(3, '0')}#${submittedAt}#${pad(submissionId)}`,
});
/** GSI3 (on the id pointer): quiz submissions of one lesson with one result, newest first. */
export const quizSubmissionByLessonResultIndex = (
  lessonId: number,
  passed: boolean,
  submittedAt: string,
  submissionId: number,
) => ({
  gsi3pk: `LESSON#${lessonId}#QUIZSUBS#${passed ? 'PASSED' : 'FAILED'}`,
  gsi3sk: `${submittedAt}#${pad(submissionId)}`,
});
/**
 * Quiz statistics of a course for one filter scope (whole course, one lesson, one student, or both), in the
 * course partition: `total_submissions`, `passed`, `failed`, `sum_score_passed`, `sum_score_failed`,
 * `sum_time_passed`, `sum_time_failed` (averages = sums ÷ counts). Every submission and grading ADDs to the four
 * scopes it belongs to.
 */
export const quizStatsKey = (
  courseId: number,
  scope: { lessonId?: number; userId?: number } = {},
): ItemKey => ({
  pk: `SPACE#${courseId}`,
  sk: `QUIZSTATS${scope.lessonId !== undefined ? `#LESSON#${pad(scope.lessonId)}` : ''}${
    scope.userId !== undefined ? `#USER#${pad(scope.userId)}` : ''
  }`,
});

// ---- Media --------------------------------------------------------------------------------------------------

/**
 * One item per media id. A pending (presigned) upload is this item with `status: 'pending'`, `expires_at_epoch`
 * (TTL, 24 h) and no GSI keys, so lists never see it; completion sets the GSI keys and removes the TTL.
 */
export const mediaKey = (mediaId: number): ItemKey => ({ pk: `MEDIA#${mediaId}`, sk: 'MEDIA' });
/** GSI1: active media of an uploader, newest first. */
export const mediaByUploaderIndex = (userId: number, createdAt: string, mediaId: number) => ({
  gsi1pk: `USER#${userId}#MEDIA`,
  gsi1sk: `${createdAt}#${pad(mediaId)}`,
});
/** GSI2: active media of an uploader attached to one object source (`feed`, `comment`, `profile`, `space`). */
export const mediaByUploaderSourceIndex = (
  userId: number,
  objectSource: string,
  createdAt: string,
  mediaId: number,
) => ({
  gsi2pk: `USER#${userId}#MEDIA#SOURCE#${objectSource}`,
  gsi2sk: `${createdAt}#${pad(mediaId)}`,
});
/** GSI3: active media of an uploader with one MIME type, newest first. */
export const mediaByUploaderTypeIndex = (
  userId: number,
  fileType: string,
  createdAt: string,
  mediaId: number,
) => ({
  gsi3pk: `USER#${userId}#MEDIA#TYPE#${fileType.toLowerCase()}`,
  gsi3sk: `${createdAt}#${pad(mediaId)}`,
});
/** Optional oEmbed response cache, keyed by the SHA-256 of the normalised URL, with a TTL. */
export const oembedCacheKey = (urlSha256: string): ItemKey => ({ pk: `OEMBED#${urlSha256}`, sk: 'OEMBED' });

// ---- Invitations ----------------------------------------------------------------------------------------------

export const invitationKey = (invitationId: number): ItemKey => ({
  pk: `INVITATION#${invitationId}`,
  sk: 'INVITATION',
});
/** Uniqueness guard: one invitation per inviter + space + e-mail, whatever its status (`already_invited`). */
export const invitationGuardKey = (spaceId: number, inviterId: number, email: string): ItemKey => ({
  pk: `INVITEGUARD#${spaceId}#${inviterId}#${email.trim().toLowerCase()}`,
  sk: 'INVITEGUARD',
});
/** GSI1: invitations of a space, newest first. */
export const invitationBySpaceIndex = (spaceId: number, createdAt: string, invitationId: number) => ({
  gsi1pk: `SPACE#${spaceId}#INVITATIONS`,
  gsi1sk: `${createdAt}#${pad(invitationId)}`,
});

// ---- Notifications (access-patterns/notifications.md) -------------------------------------------------------

export type NotificationState = 'UNREAD' | 'READ';
export const notificationState = (isRead: boolean): NotificationState => (isRead ? 'READ' : 'UNREAD');

/** The notification itself, by id. Carries G1 (all), G2 (state) and G3 (type + state). */
export const notificationKey = (notificationId: number): ItemKey => ({
  pk: `NOTIF#${notificationId}`,
  sk: 'NOTIF',
});
/** A full copy of the notification in the same partition, carrying G1 by type (an item has one G1 key). */
export const notificationTypeCopyKey = (notificationId: number): ItemKey => ({
  pk: `NOTIF#${notificationId}`,
  sk: 'NOTIF#TYPE',
});
/** Sort key of every notification index: creation time, then id (ids are allocated in creation order). */
const notificationSort = (createdAt: string, notificationId: number) => `${createdAt}#${pad(notificationId)}`;
/** GSI1 on the notification: all notifications of a recipient. */
export const notificationByUserIndex = (userId: number, createdAt: string, notificationId: number) => ({
  gsi1pk: `USER#${userId}#NOTIFS`,
  gsi1sk: notificationSort(createdAt, notificationId),
});
/** GSI1 on the type copy: notifications of a recipient with one type. */
export const notificationByUserTypeIndex = (
  userId: number,
  type: string,
  createdAt: string,
  notificationId: number,
) => ({
  gsi1pk: `USER#${userId}#NOTIFS#TYPE#${type}`,
  gsi1sk: notificationSort(createdAt, notificationId),
});
/** GSI2 on the notification: notifications of a recipient in one state; re-keyed when marked read. */
export const notificationByUserStateIndex = (
  userId: number,
  state: NotificationState,
  createdAt: string,
  notificationId: number,
) => ({
  gsi2pk: `USER#${userId}#NOTIFS#${state}`,
  gsi2sk: notificationSort(createdAt, notificationId),
});
/** GSI3 on the notification: notifications of a recipient with one type in one state; re-keyed when marked read. */
export const notificationByUserTypeStateIndex = (
  userId: number,
  type: string,
  state: NotificationState,
  createdAt: string,
  notificationId: number,
) => ({
  gsi3pk: `USER#${userId}#NOTIFS#TYPE#${type}#${state}`,
  gsi3sk: notificationSort(createdAt, notificationId),
});
/**
 * Notification aggregates of a recipient, flat attributes moved with ADD in the transaction of each create, mark
 * and delete: `total`, `unread`, `type:<type>`, `unread:<type>` (read counts are the differences).
 */
export const notificationStatsKey = (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'NOTIFSTATS' });

// ---- Mail worker ----------------------------------------------------------------------------------------------

/** Delivery marker of one queued e-mail (dedupe id from the message), with a TTL: SQS may deliver twice. */
export const mailDeliveryKey = (dedupeId: string): ItemKey => ({ pk: `MAIL#${dedupeId}`, sk: 'MAIL' });

// ---- Migrations -----------------------------------------------------------------------------------------------

export type MigrationItemKind = 'group' | 'membership' | 'activity' | 'comment' | 'user';

/** The one migration lock (one run at a time, any source): conditional Put, deleted when the run ends. */
export const migrationLockKey = (): ItemKey => ({ pk: 'MIGRATION', sk: 'LOCK' });
/**
 * The current (latest) run of a source: status, step, totals, progress counters per kind, results, capped errors.
 * `GET /migrations/<source>/status` is one GetItem of this item.
 */
export const migrationRunKey = (source: string): ItemKey => ({ pk: `MIGRATION#${source}`, sk: 'RUN' });
/** Copy of a finished run, kept when the next run replaces the current one. */
export const migrationRunArchiveKey = (source: string, runId: string): ItemKey => ({
  pk: `MIGRATION#${source}`,
  sk: `RUN#${runId}`,
});
/** Chunk marker: Put with `attribute_not_exists(pk)` in the transaction that adds the chunk's counts. */
export const migrationChunkKey = (runId: string, kind: MigrationItemKind, chunkNo: number): ItemKey => ({
  pk: `MIGRATIONRUN#${runId}`,
  sk: `CHUNK#${kind}#${pad(chunkNo)}`,
});
/** Source id → target id map, across runs (skip_existing, never duplicate): conditional Put per migrated row. */
export const migrationMapKey = (
  source: string,
  kind: MigrationItemKind,
  sourceId: number | string,
): ItemKey => ({
  pk: `MIGMAP#${source}#${kind}#${sourceId}`,
  sk: 'MAP',
});
