import * as v from 'valibot';
import { paginatorB } from './envelopes.ts';
import {
  boolQuery,
  cursorQuery,
  idParam,
  integer,
  isoDateTime,
  messageResponse,
  pageQuery,
  perPageQuery,
} from './fields.ts';
import { memberSummarySchema } from './members.ts';
import { named } from './openapi-metadata.ts';
import {
  DIGEST_FREQUENCIES,
  EMAIL_PREFERENCE_KEYS,
  NOTIFICATION_TYPES,
  PUSH_PREFERENCE_KEYS,
} from '../vocabulary/notifications.ts';
import { defineOperation, errorOutcome } from './operation.ts';

const TAGS = ['Notifications'];
const NOT_FOUND = errorOutcome(404, 'notification_not_found', 'No notification has this id.');
const FORBIDDEN = errorOutcome(403, 'rest_forbidden', 'The notification belongs to another user.');
const INVALID = errorOutcome(400, 'rest_invalid_param', 'A parameter is out of range or malformed.');

/** The Notification resource as list items carry it: the fields plus the actor's `xprofile`. */
export const notificationSchema = v.pipe(
  v.object({
    id: integer(),
    user_id: integer(),
    type: v.picklist(NOTIFICATION_TYPES),
    title: v.string(),
    message: v.string(),
    action_url: v.string(),
    is_read: v.boolean(),
    actor_id: v.pipe(
      v.nullable(integer()),
      v.description(
        'The member whose action caused the notification (decisions.md): for `lesson_complete` the student ' +
          'themselves, for `course_enrollment` the inviter. Every notification the platform emits has one; null ' +
          'only for an imported notification whose file named no actor.',
      ),
    ),
    object_id: v.pipe(
      v.nullable(integer()),
      v.description(
        'The id of the object the notification is about; null when it is about no stored object.',
      ),
    ),
    object_type: v.string(),
    created_at: isoDateTime(),
    read_at: v.pipe(v.nullable(isoDateTime()), v.description('Null while unread.')),
    xprofile: v.pipe(
      v.nullable(memberSummarySchema),
      v.description("The actor's member summary; null only when `actor_id` is null."),
    ),
  }),
  named('Notification'),
);

const idParams = v.object({ id: idParam() });

export const listNotifications = defineOperation({
  operationId: 'listNotifications',
  summary: "The caller's notifications, paginated",
  description:
    'Newest first by default. `orderby` is `created_at` or `id` (ids are allocated in creation order, so both give ' +
    'the same order). `next_page_url` carries an opaque `cursor`; following it costs one page. A page past the end ' +
    'is 200 with empty `data`.',
  tags: TAGS,
  query: v.object({
    page: pageQuery(),
    per_page: perPageQuery(20),
    is_read: boolQuery(),
    type: v.optional(v.picklist(NOTIFICATION_TYPES, `must be one of ${NOTIFICATION_TYPES.join(', ')}`)),
    orderby: v.optional(v.picklist(['created_at', 'id'], 'must be created_at or id'), 'created_at'),
    order: v.optional(v.picklist(['asc', 'desc'], 'must be asc or desc'), 'desc'),
    cursor: cursorQuery(),
  }),
  response: v.object({ notifications: paginatorB(notificationSchema) }),
  errors: [INVALID],
});

export const listUnreadNotifications = defineOperation({
  operationId: 'listUnreadNotifications',
  summary: "The caller's unread notifications with the exact unread count",
  description: 'At most the 100 newest unread notifications; `unread_count` counts all of them.',
  tags: TAGS,
  response: v.object({ notifications: v.array(notificationSchema), unread_count: integer() }),
  errors: [],
});

export const markNotificationRead = defineOperation({
  operationId: 'markNotificationRead',
  summary: 'Mark one notification read',
  description:
    'Marking an already-read notification is not an error: 200 with "Notification is already marked as read." and ' +
    'the original `read_at`.',
  tags: TAGS,
  params: idParams,
  response: v.object({
    message: v.string(),
    data: v.object({ id: integer(), is_read: v.literal(true), read_at: isoDateTime() }),
  }),
  errors: [INVALID, FORBIDDEN, NOT_FOUND],
});

export const markAllNotificationsRead = defineOperation({
  operationId: 'markAllNotificationsRead',
  summary: "Mark all the caller's notifications read",
  description: '`marked_count` is the number of notifications this call changed from unread to read.',
  tags: TAGS,
  response: v.object({ message: v.string(), data: v.object({ marked_count: integer() }) }),
  errors: [],
});

export const deleteNotification = defineOperation({
  operationId: 'deleteNotification',
  summary: 'Delete one notification permanently',
  tags: TAGS,
  params: idParams,
  response: messageResponse(),
  errors: [INVALID, FORBIDDEN, NOT_FOUND],
});

export const deleteAllNotifications = defineOperation({
  operationId: 'deleteAllNotifications',
  summary: "Delete all the caller's notifications",
  description: '`deleted_count` is the number of notifications this call deleted.',
  tags: TAGS,
  response: v.object({ message: v.string(), data: v.object({ deleted_count: integer() }) }),
  errors: [],
});

// ---- Preferences --------------------------------------------------------------------------------------------

const flags = <K extends string>(keys: readonly K[]) =>
  v.object(
    Object.fromEntries(keys.map((key) => [key, v.boolean()])) as Record<K, v.BooleanSchema<undefined>>,
  );
const optionalFlags = <K extends string>(keys: readonly K[]) =>
  v.strictObject(
    Object.fromEntries(keys.map((key) => [key, v.optional(v.boolean())])) as Record<
      K,
      v.OptionalSchema<v.BooleanSchema<undefined>, undefined>
    >,
  );

export const notificationPreferencesSchema = v.object({
  email_notifications: flags(EMAIL_PREFERENCE_KEYS),
  push_notifications: flags(PUSH_PREFERENCE_KEYS),
  digest_frequency: v.picklist(DIGEST_FREQUENCIES),
});

export const getNotificationPreferences = defineOperation({
  operationId: 'getNotificationPreferences',
  summary: "The caller's notification preferences",
  description:
    'Defaults: e-mail new_comment, new_follower, mention, space_invite on and new_reaction off; push all on; ' +
    'digest_frequency never.',
  tags: TAGS,
  response: v.object({ data: notificationPreferencesSchema }),
  errors: [],
});

export const updateNotificationPreferences = defineOperation({
  operationId: 'updateNotificationPreferences',
  summary: "Update the caller's notification preferences",
  description:
    'Merges the keys given; unknown keys are 400 rest_invalid_param. Answers the full preferences now in force.',
  tags: TAGS,
  body: v.strictObject({
    email_notifications: v.optional(optionalFlags(EMAIL_PREFERENCE_KEYS)),
    push_notifications: v.optional(optionalFlags(PUSH_PREFERENCE_KEYS)),
    digest_frequency: v.optional(v.picklist(DIGEST_FREQUENCIES, 'must be daily, weekly or never')),
  }),
  response: v.object({ message: v.string(), data: notificationPreferencesSchema }),
  errors: [INVALID],
});

// ---- Digest e-mails ----------------------------------------------------------------------------------------

export const unsubscribeFromDigest = defineOperation({
  operationId: 'unsubscribeFromDigest',
  summary: 'Stop digest e-mails (the link in every digest e-mail)',
  description:
    "Sets the member's `digest_frequency` to `never`. No login: the signed `token` of the e-mail's link is the " +
    'proof and can do nothing else. Digests go out daily or weekly at 07:00 UTC to members who chose that ' +
    'frequency, listing the unread notifications since their last digest whose type they want by e-mail; nothing ' +
    'is sent when there is nothing new, and a period is never mailed twice.',
  tags: TAGS,
  query: v.object({
    token: v.pipe(
      v.string('is required'),
      v.regex(/^[A-Za-z0-9._-]{1,120}$/, 'must be the token from the e-mail'),
    ),
  }),
  response: v.object({ message: v.string(), data: v.object({ digest_frequency: v.literal('never') }) }),
  errors: [
    { status: 400, code: 'rest_invalid_param', description: 'The token is not one this service signed.' },
  ],
});

export { DIGEST_FREQUENCIES, EMAIL_PREFERENCE_KEYS, NOTIFICATION_TYPES, PUSH_PREFERENCE_KEYS };
