import { PATH_USERNAME_PATTERN } from '../vocabulary/profiles.ts';
import * as v from 'valibot';
import { FEED_MESSAGE_MAX_LENGTH, FEED_TOPIC_FILTER_MAX } from '../vocabulary/feeds.ts';
import { paginatorC } from './envelopes.ts';
import { messageResponse, pageQuery, perPageQuery } from './fields.ts';
import { defineOperation } from './operation.ts';
import { documentedAs } from './openapi-metadata.ts';
import {
  TAGS,
  INVALID,
  TOPICS_INVALID,
  FEED_NOT_FOUND,
  FORBIDDEN_MANAGE,
  positiveInteger,
  title,
  text,
  topicIds,
  media,
  status,
  feedParams,
  feedSchema,
} from './feed-schemas.ts';

// ---- Feeds -------------------------------------------------------------------------------------------------------

const FEED_DESCRIPTION =
  'Feed items carry the contract’s fields (`id`, `user_id`, `title`, `slug`, `message` (Markdown), ' +
  '`message_rendered` (sanitized HTML: no scripts, no event handlers, no `javascript:` URLs, links with ' +
  '`rel="nofollow ugc noopener"`, `@username` linked to `/u/<username>`), `type`, `status`, `comments_count`, ' +
  '`reactions_count`, `created_at`, `xprofile`) plus `space_id` (null: the global feed), `updated_at`, `topics` ' +
  '(the active topics it carries), `liked` (by the caller) and `media`. Timestamps are ISO 8601 ' +
  '`YYYY-MM-DDTHH:MM:SS` in UTC.';

export const createFeed = defineOperation({
  operationId: 'createFeed',
  summary: 'Publish a feed (or save a draft)',
  description:
    `${FEED_DESCRIPTION} \`space_id\` is required while the general setting \`disable_global_posts\` is \`yes\`; ` +
    'the caller must be an active member of the space (in a `restricted_post_only` space: its admins and ' +
    'moderators). `topics` must pass the topic configuration. Mentions in a published feed notify the mentioned ' +
    'users who can see it. A feed stays in the space it was created in.',
  tags: TAGS,
  body: v.strictObject({
    title: v.optional(title(), ''),
    message: text(FEED_MESSAGE_MAX_LENGTH),
    space_id: v.optional(v.nullable(positiveInteger('must be a space id (a positive integer) or null'))),
    topics: v.optional(topicIds(), []),
    status: v.optional(status(), 'published'),
    media: v.optional(media(), []),
  }),
  response: v.object({ message: v.string(), feed: feedSchema }),
  successStatus: 201,
  errors: [
    INVALID,
    TOPICS_INVALID,
    {
      status: 400,
      code: 'rest_missing_callback_param',
      description: '`message` is missing, or `space_id` while `disable_global_posts` is on.',
    },
    {
      status: 403,
      code: 'rest_forbidden',
      description:
        'The caller may not post in this space (not a member, or the space is restricted to its moderators).',
    },
    {
      status: 404,
      code: 'not_found',
      description: 'No community space has this id (a secret space the caller is not in answers the same).',
    },
  ],
});

export const updateFeed = defineOperation({
  operationId: 'updateFeed',
  summary: 'Update a feed',
  description:
    `${FEED_DESCRIPTION} Every field is optional; \`topics\` replaces the assignment and passes the topic rules as ` +
    'on create; a status change moves the feed in or out of the published lists and counts. Edits send no ' +
    'notifications.',
  tags: TAGS,
  params: feedParams,
  body: v.strictObject({
    title: v.optional(title()),
    message: v.optional(text(FEED_MESSAGE_MAX_LENGTH)),
    topics: v.optional(topicIds()),
    status: v.optional(status()),
    media: v.optional(media()),
  }),
  response: v.object({ message: v.string(), feed: feedSchema }),
  errors: [INVALID, TOPICS_INVALID, FORBIDDEN_MANAGE, FEED_NOT_FOUND],
});

export const listFeeds = defineOperation({
  operationId: 'listFeeds',
  summary: 'Feeds the caller may see, newest first (paginator C)',
  description:
    `${FEED_DESCRIPTION} Public spaces and the global feed are visible to every member; private and secret ` +
    'spaces to their members (community moderators see all). `topics` (comma-separated ids, at most ' +
    `${FEED_TOPIC_FILTER_MAX}) lists feeds carrying any of them (unknown ids match nothing); with several topics a ` +
    'page lies at most 10 000 feeds into the list. `space_id` lists one space (a space the caller may not see is ' +
    '404 `not_found`); `username` one author; `topics` combines with `space_id` but not with `username`. `status` ' +
    'other than `published` lists feeds in that status: a community moderator or admin without `username` sees ' +
    'every member’s; otherwise the feeds of `username` (default: the caller), for the author and community ' +
    'moderators only (403 `rest_forbidden` else); it combines with neither `topics` nor `space_id`. `total` counts ' +
    'exactly what the caller may page through.',
  tags: TAGS,
  query: v.object({
    page: pageQuery(),
    per_page: perPageQuery(20),
    topics: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,16}(,\d{1,16})*$/, 'must be comma-separated topic ids'),
        // Clients send a list of integers, comma-separated (`style: form`, `explode: false`).
        documentedAs({
          type: 'array',
          items: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          minItems: 1,
          maxItems: FEED_TOPIC_FILTER_MAX,
        }),
        v.transform((value) => [...new Set(value.split(',').map(Number))]),
        v.check((ids) => ids.every(Number.isSafeInteger), 'must be comma-separated topic ids'),
        v.maxLength(FEED_TOPIC_FILTER_MAX, `must name at most ${FEED_TOPIC_FILTER_MAX} topics`),
      ),
    ),
    space_id: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,16}$/, 'must be a space id (a positive integer)'),
        documentedAs({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
        v.transform(Number),
        v.minValue(1, 'must be a space id (a positive integer)'),
        v.maxValue(Number.MAX_SAFE_INTEGER, 'must be a space id (a positive integer)'),
      ),
    ),
    username: v.optional(
      v.pipe(v.string(), v.regex(PATH_USERNAME_PATTERN, 'must be a username (letters, digits, _ and -)')),
    ),
    status: v.optional(status(), 'published'),
  }),
  response: v.object({ feeds: paginatorC(feedSchema) }),
  errors: [
    INVALID,
    { status: 403, code: 'rest_forbidden', description: 'Unpublished feeds of another member.' },
    { status: 404, code: 'not_found', description: 'The space does not exist or the caller may not see it.' },
    { status: 404, code: 'user_not_found', description: 'No user has this username.' },
  ],
});

export const getFeed = defineOperation({
  operationId: 'getFeed',
  summary: 'One feed',
  description: FEED_DESCRIPTION,
  tags: TAGS,
  params: feedParams,
  response: v.object({ feed: feedSchema }),
  errors: [INVALID, FEED_NOT_FOUND],
});

export const deleteFeed = defineOperation({
  operationId: 'deleteFeed',
  summary: 'Delete a feed with its comments and likes',
  description:
    'The author, a moderator of the feed’s space or a community moderator. The feed’s topic links, its comments ' +
    'and every like on it or its comments are deleted before the answer; every count follows (topic and space ' +
    '`posts_count`, the members’ feed and comment counts).',
  tags: TAGS,
  params: feedParams,
  response: messageResponse(),
  errors: [INVALID, FORBIDDEN_MANAGE, FEED_NOT_FOUND],
});
