import * as v from 'valibot';
import {
  COMMENT_MESSAGE_MAX_LENGTH,
  COMMENT_STATUSES,
  FEED_MEDIA_MAX_ITEMS,
  FEED_MEDIA_TYPE_MAX_LENGTH,
  FEED_MESSAGE_MAX_LENGTH,
  FEED_STATUSES,
  FEED_TITLE_MAX_LENGTH,
  FEED_TOPIC_FILTER_MAX,
  FEED_TOPICS_MAX_ITEMS,
  REACTION_TYPES,
  URL_MAX_LENGTH,
} from '../vocabulary/feeds.ts';
import { paginatorB, paginatorC } from './envelopes.ts';
import {
  cursorQuery,
  idParam,
  integer,
  isoDateTime,
  messageResponse,
  pageQuery,
  perPageQuery,
} from './fields.ts';
import { defineOperation } from './operation.ts';

const TAGS = ['Feeds'];

const INVALID = {
  status: 400,
  code: 'rest_invalid_param',
  description: 'A parameter is malformed, out of range or unknown; `data.params` names it.',
} as const;
const TOPICS_INVALID = {
  status: 400,
  code: 'rest_invalid_param',
  description:
    'A topic rule is broken (`data.params.topics`): topics given while disabled, an unknown or inactive topic, ' +
    'more than one topic when `allow_multiple` is false, more than `max_topics_per_post`, none when ' +
    '`required_for_posts` or the space’s `topic_required` demands one, or a topic deleted meanwhile.',
} as const;
const FEED_NOT_FOUND = {
  status: 404,
  code: 'not_found',
  description:
    'No feed has this id, or the caller may not see it (a private or secret space, or unpublished).',
} as const;
const FORBIDDEN_MANAGE = {
  status: 403,
  code: 'rest_forbidden',
  description: 'Only the author, a moderator of the feed’s space or a community moderator may do this.',
} as const;

// ---- Fields -------------------------------------------------------------------------------------------------------

const positiveInteger = (message = 'must be a positive integer') =>
  v.pipe(v.number(message), v.integer(message), v.minValue(1, message));

const title = () =>
  v.pipe(
    v.string(),
    v.maxLength(FEED_TITLE_MAX_LENGTH, `must be at most ${FEED_TITLE_MAX_LENGTH} characters`),
  );

const text = (max: number) =>
  v.pipe(
    v.string(),
    v.check((value) => value.trim() !== '', 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );

const topicIds = () =>
  v.pipe(
    v.array(positiveInteger('must be an array of topic ids')),
    v.maxLength(FEED_TOPICS_MAX_ITEMS, `must hold at most ${FEED_TOPICS_MAX_ITEMS} ids`),
  );

const httpUrl = () =>
  v.pipe(
    v.string(),
    v.maxLength(URL_MAX_LENGTH, `must be at most ${URL_MAX_LENGTH} characters`),
    v.check((value) => {
      try {
        const { protocol } = new URL(value);
        return protocol === 'http:' || protocol === 'https:';
      } catch {
        return false;
      }
    }, 'must be an absolute http or https URL'),
  );

const media = () =>
  v.pipe(
    v.array(
      v.strictObject({
        type: v.pipe(
          v.string(),
          v.minLength(1, 'must not be empty'),
          v.maxLength(FEED_MEDIA_TYPE_MAX_LENGTH),
        ),
        url: httpUrl(),
      }),
    ),
    v.maxLength(FEED_MEDIA_MAX_ITEMS, `must hold at most ${FEED_MEDIA_MAX_ITEMS} items`),
  );

const status = () => v.picklist(FEED_STATUSES, `must be one of ${FEED_STATUSES.join(', ')}`);

/** The author summary of feed items and comments (the contract's four `xprofile` fields). */
export const feedAuthorSchema = v.object({
  user_id: integer(),
  display_name: v.string(),
  username: v.string(),
  avatar: v.string(),
});

export const feedTopicSchema = v.object({
  id: integer(),
  title: v.string(),
  slug: v.string(),
  color: v.string(),
  icon: v.string(),
});

/** The feed item: the contract's fields, then what clients need besides. */
export const feedSchema = v.object({
  id: integer(),
  user_id: integer(),
  title: v.string(),
  slug: v.string(),
  message: v.string(),
  message_rendered: v.string(),
  type: v.literal('text'),
  status: v.picklist(FEED_STATUSES),
  comments_count: integer(),
  reactions_count: integer(),
  created_at: isoDateTime(),
  xprofile: v.nullable(feedAuthorSchema),
  space_id: v.nullable(integer()),
  updated_at: isoDateTime(),
  topics: v.array(feedTopicSchema),
  liked: v.boolean(),
  media: v.array(v.object({ type: v.string(), url: v.string() })),
});

export const commentSchema = v.object({
  id: integer(),
  post_id: integer(),
  parent_id: v.nullable(integer()),
  message: v.string(),
  message_rendered: v.string(),
  reactions_count: integer(),
  status: v.picklist(COMMENT_STATUSES),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
  liked: v.boolean(),
  xprofile: v.nullable(feedAuthorSchema),
});

const feedParams = v.object({ feed_id: idParam() });

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
    'other than `published` lists the feeds of `username` (default: the caller) in that status, for the author and ' +
    'community moderators only, and combines with neither `topics` nor `space_id`. `total` counts exactly what the ' +
    'caller may page through.',
  tags: TAGS,
  query: v.object({
    page: pageQuery(),
    per_page: perPageQuery(20),
    topics: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,15}(,\d{1,15})*$/, 'must be comma-separated topic ids'),
        v.transform((value) => [...new Set(value.split(',').map(Number))]),
        v.maxLength(FEED_TOPIC_FILTER_MAX, `must name at most ${FEED_TOPIC_FILTER_MAX} topics`),
      ),
    ),
    space_id: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,15}$/, 'must be a space id (a positive integer)'),
        v.transform(Number),
        v.minValue(1, 'must be a space id (a positive integer)'),
      ),
    ),
    username: v.optional(
      v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a username (letters, digits, _ and -)')),
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

// ---- Comments and reactions ----------------------------------------------------------------------------------------

export const listFeedComments = defineOperation({
  operationId: 'listFeedComments',
  summary: 'Comments of a feed, oldest first (paginator B)',
  description:
    'Published comments of a feed the caller may see, oldest first; a reply is a row naming its `parent_id`. ' +
    '`message_rendered` follows the feed rules. `liked` is the caller’s like; `xprofile` the author. ' +
    '`next_page_url` carries an opaque `cursor`; following it costs one page.',
  tags: TAGS,
  params: feedParams,
  query: v.object({ page: pageQuery(), per_page: perPageQuery(20), cursor: cursorQuery() }),
  response: v.object({ comments: paginatorB(commentSchema) }),
  errors: [INVALID, FEED_NOT_FOUND],
});

export const createFeedComment = defineOperation({
  operationId: 'createFeedComment',
  summary: 'Comment on a feed, or reply to one of its comments',
  description:
    '`parent_id` names a comment of the same feed (another feed’s comment: 400 `rest_invalid_param`). Notifies ' +
    'the parent comment’s author (`new_reply`), the feed author (`new_comment`) and mentioned users who can see ' +
    'the feed (`mention`), each once and never the commenter.',
  tags: TAGS,
  params: feedParams,
  body: v.strictObject({
    message: text(COMMENT_MESSAGE_MAX_LENGTH),
    parent_id: v.optional(v.nullable(positiveInteger('must be a comment id (a positive integer) or null'))),
  }),
  response: v.object({ message: v.string(), comment: commentSchema }),
  successStatus: 201,
  errors: [
    INVALID,
    { status: 400, code: 'rest_missing_callback_param', description: '`message` is missing.' },
    FEED_NOT_FOUND,
  ],
});

export const reactToFeed = defineOperation({
  operationId: 'reactToFeed',
  summary: 'Toggle the caller’s like on a feed (or on one of its comments)',
  description:
    'A like when the caller has none, else removes it. With `comment_id` the like is on that comment of the ' +
    'feed. Answers the new state and count; a like (not an unlike) notifies the author (`new_reaction`).',
  tags: TAGS,
  params: feedParams,
  body: v.strictObject({
    react_type: v.picklist(REACTION_TYPES, `must be one of ${REACTION_TYPES.join(', ')}`),
    comment_id: v.optional(positiveInteger('must be a comment id (a positive integer)')),
  }),
  response: v.object({
    message: v.string(),
    data: v.object({ liked: v.boolean(), reactions_count: integer() }),
  }),
  errors: [
    INVALID,
    { status: 400, code: 'rest_missing_callback_param', description: '`react_type` is missing.' },
    FEED_NOT_FOUND,
  ],
});
