import * as v from 'valibot';
import {
  MAX_TOPICS_PER_POST_MAX,
  MAX_TOPICS_PER_POST_MIN,
  TOPIC_COLOR_PATTERN,
  TOPIC_DESCRIPTION_MAX_LENGTH,
  TOPIC_DISPLAY_STYLES,
  TOPIC_ICON_MAX_LENGTH,
  TOPIC_SEARCH_MAX_LENGTH,
  TOPIC_SERIAL_MAX,
  TOPIC_SLUG_MAX_LENGTH,
  TOPIC_STATUSES,
  TOPIC_TITLE_MAX_LENGTH,
} from '../vocabulary/topics.ts';
import { paginationBlockA } from './envelopes.ts';
import {
  idParam,
  integer,
  idQuery,
  messageResponse,
  pageQuery,
  perPageQuery,
  sqlDateTime,
} from './fields.ts';
import { defineOperation, errorOutcome } from './operation.ts';

/**
 * Topics administration (contract "Topics (PRO)", decisions.md "Topics and feeds"). Administrators only: every
 * other authenticated caller gets 403 `rest_forbidden`. As in WordPress, the request is validated before the
 * permission is checked.
 */
const TAGS = ['Topics'];
const FORBIDDEN = errorOutcome(403, 'rest_forbidden', 'The caller is not an administrator.');
const NOT_FOUND = errorOutcome(404, 'not_found', 'No topic has this id.');
const DUPLICATE_SLUG = errorOutcome(
  400,
  'duplicate_slug',
  'The slug sent is already the slug of another topic.',
);

const statusSchema = v.picklist(TOPIC_STATUSES, 'must be active or inactive');

/** The Topic resource. Timestamps are `YYYY-MM-DD HH:MM:SS` in UTC. */
export const topicSchema = v.object({
  id: integer(),
  title: v.string(),
  slug: v.string(),
  description: v.string(),
  color: v.string(),
  icon: v.string(),
  parent_id: v.nullable(integer()),
  posts_count: integer(),
  status: statusSchema,
  serial: integer(),
  created_at: sqlDateTime(),
  updated_at: sqlDateTime(),
});

// ---- Body fields ---------------------------------------------------------------------------------------------

const title = () =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(TOPIC_TITLE_MAX_LENGTH, `must be at most ${TOPIC_TITLE_MAX_LENGTH} characters`),
  );
const slug = () =>
  v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(TOPIC_SLUG_MAX_LENGTH, `must be at most ${TOPIC_SLUG_MAX_LENGTH} characters`),
  );
/** A string of at most `max` characters (empty allowed). */
const textUpTo = (max: number) =>
  v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`));
const description = () => textUpTo(TOPIC_DESCRIPTION_MAX_LENGTH);
const color = () =>
  v.pipe(
    v.string('must be a string'),
    v.check(
      (value) => value === '' || TOPIC_COLOR_PATTERN.test(value),
      'must be a hex color #RGB or #RRGGBB (or empty for none)',
    ),
  );
const icon = () => textUpTo(TOPIC_ICON_MAX_LENGTH);
const parentId = () =>
  v.nullable(
    v.pipe(
      v.number('must be an integer or null'),
      v.integer('must be an integer or null'),
      v.minValue(0, 'must be a topic id, or 0 / null for none'),
    ),
  );
const serial = () =>
  v.pipe(
    v.number('must be an integer'),
    v.integer('must be an integer'),
    v.minValue(0, `must be an integer between 0 and ${TOPIC_SERIAL_MAX}`),
    v.maxValue(TOPIC_SERIAL_MAX, `must be an integer between 0 and ${TOPIC_SERIAL_MAX}`),
  );

const FIELD_RULES =
  `Sizes: \`title\` 1..${TOPIC_TITLE_MAX_LENGTH} characters (trimmed), \`slug\` 1..${TOPIC_SLUG_MAX_LENGTH}, ` +
  `\`description\` at most ${TOPIC_DESCRIPTION_MAX_LENGTH}, \`icon\` at most ${TOPIC_ICON_MAX_LENGTH}. A slug ` +
  'sent is normalised (lower-case ASCII, accents folded, other characters to `-`, runs collapsed, trimmed); one ' +
  'that normalises to nothing is 400 `rest_invalid_param`. `color` is `#RGB` or `#RRGGBB` (or empty for none). ' +
  '`parent_id` names an existing topic (400 `rest_invalid_param` otherwise); 0 or null means top level. ' +
  `\`serial\` is 0..${TOPIC_SERIAL_MAX}. Unknown fields are 400 \`rest_invalid_param\`.`;

// ---- Operations ----------------------------------------------------------------------------------------------

export const listTopics = defineOperation({
  operationId: 'listTopics',
  summary: 'List topics (administrators)',
  description:
    'Ordered by `serial`, then `id`. Filters: `status`; `parent_id` (0 = top-level topics); `search`, a ' +
    'case-insensitive substring of the title (an empty `search` is no filter). `pagination.total` counts the ' +
    'filtered list; a page past the end is 200 with an empty `topics`.',
  tags: TAGS,
  query: v.object({
    status: v.optional(statusSchema),
    parent_id: idQuery({ min: 0 }),
    search: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(TOPIC_SEARCH_MAX_LENGTH, `must be at most ${TOPIC_SEARCH_MAX_LENGTH} characters`),
      ),
    ),
    page: pageQuery(),
    per_page: perPageQuery(50),
  }),
  response: v.object({ topics: v.array(topicSchema), pagination: paginationBlockA() }),
  errors: [FORBIDDEN],
});

export const createTopic = defineOperation({
  operationId: 'createTopic',
  summary: 'Create a topic (administrators)',
  description:
    'Answers the full Topic plus `message`, with `posts_count` 0. Without `slug`, one is generated from the title; ' +
    'when that slug is taken, `-2`, `-3`… is appended (a title with no letter or digit gives `topic`). A `slug` ' +
    'sent that is taken is 400 `duplicate_slug`, also under concurrent creates. `status` defaults to `active`, ' +
    `\`serial\` to one more than the largest. ${FIELD_RULES}`,
  tags: TAGS,
  body: v.strictObject({
    title: title(),
    slug: v.optional(slug()),
    description: v.optional(description(), ''),
    color: v.optional(color(), ''),
    icon: v.optional(icon(), ''),
    parent_id: v.optional(parentId(), null),
    status: v.optional(statusSchema, 'active'),
    serial: v.optional(serial()),
  }),
  response: v.object({ ...topicSchema.entries, message: v.string() }),
  successStatus: 201,
  errors: [DUPLICATE_SLUG, FORBIDDEN],
});

export const updateTopic = defineOperation({
  operationId: 'updateTopic',
  summary: 'Update a topic (administrators)',
  description:
    'Partial update: only the fields sent change. A new `title` keeps the slug unless a `slug` is sent too. A ' +
    '`parent_id` that would make the topic its own ancestor (itself, or one of its descendants) is 400 ' +
    '`rest_invalid_param`; so is an ancestor chain longer than 50 levels. A `slug` taken by another topic is 400 ' +
    '`duplicate_slug`. Concurrent updates are applied one after the other, each onto the latest state. Answers ' +
    `the updated fields plus \`message\`. ${FIELD_RULES}`,
  tags: TAGS,
  params: v.object({ topic_id: idParam() }),
  body: v.strictObject({
    title: v.optional(title()),
    slug: v.optional(slug()),
    description: v.optional(description()),
    color: v.optional(color()),
    icon: v.optional(icon()),
    parent_id: v.optional(parentId()),
    status: v.optional(statusSchema),
    serial: v.optional(serial()),
  }),
  response: v.object({
    ...v.pick(topicSchema, ['id', 'title', 'slug', 'description', 'color', 'icon']).entries,
    status: statusSchema,
    updated_at: sqlDateTime(),
    message: v.string(),
  }),
  errors: [DUPLICATE_SLUG, FORBIDDEN, NOT_FOUND],
});

export const deleteTopic = defineOperation({
  operationId: 'deleteTopic',
  summary: 'Delete a topic (administrators)',
  description:
    'Cannot be undone. Before answering, the topic is detached from every feed that carries it (published or ' +
    'not), so no later read shows it on a feed. Its child topics move up to its own parent (top level when it ' +
    'had none).',
  tags: TAGS,
  params: v.object({ topic_id: idParam() }),
  response: messageResponse(),
  errors: [FORBIDDEN, NOT_FOUND],
});

/** The topic configuration record. */
export const topicsConfigSchema = v.object({
  enabled: v.boolean(),
  required_for_posts: v.boolean(),
  allow_multiple: v.boolean(),
  max_topics_per_post: integer(),
  user_can_create: v.boolean(),
  display_on_feed: v.boolean(),
  display_style: v.picklist(TOPIC_DISPLAY_STYLES),
});

export const getTopicsConfig = defineOperation({
  operationId: 'getTopicsConfig',
  summary: 'The topic configuration (administrators)',
  description:
    'Defaults while unchanged: `enabled` true, `required_for_posts` false, `allow_multiple` true, ' +
    '`max_topics_per_post` 3, `user_can_create` false, `display_on_feed` true, `display_style` `badge`.',
  tags: TAGS,
  response: topicsConfigSchema,
  errors: [FORBIDDEN],
});

const boolean = () => v.boolean('must be a boolean');
const topicsPerPost = `must be an integer between ${MAX_TOPICS_PER_POST_MIN} and ${MAX_TOPICS_PER_POST_MAX}`;

export const updateTopicsConfig = defineOperation({
  operationId: 'updateTopicsConfig',
  summary: 'Change the topic configuration (administrators)',
  description:
    'Any of the configuration fields, all optional; the others keep their value. `max_topics_per_post` is ' +
    `${MAX_TOPICS_PER_POST_MIN}..${MAX_TOPICS_PER_POST_MAX}; \`display_style\` is \`badge\`, \`tag\` or \`label\`. ` +
    'Answers `enabled`, `required_for_posts`, `allow_multiple` and `max_topics_per_post` now in force, plus ' +
    '`message`. The rules apply to `POST /feeds` and `PUT /feeds/{id}` from then on.',
  tags: TAGS,
  body: v.strictObject({
    enabled: v.optional(boolean()),
    required_for_posts: v.optional(boolean()),
    allow_multiple: v.optional(boolean()),
    max_topics_per_post: v.optional(
      v.pipe(
        v.number(topicsPerPost),
        v.integer(topicsPerPost),
        v.minValue(MAX_TOPICS_PER_POST_MIN, topicsPerPost),
        v.maxValue(MAX_TOPICS_PER_POST_MAX, topicsPerPost),
      ),
    ),
    user_can_create: v.optional(boolean()),
    display_on_feed: v.optional(boolean()),
    display_style: v.optional(v.picklist(TOPIC_DISPLAY_STYLES, 'must be badge, tag or label')),
  }),
  response: v.object({
    enabled: v.boolean(),
    required_for_posts: v.boolean(),
    allow_multiple: v.boolean(),
    max_topics_per_post: integer(),
    message: v.string(),
  }),
  errors: [FORBIDDEN],
});
