/** Fields, shared schemas and documented errors of the feed contracts (feeds.ts, feed-comments.ts). */
import * as v from 'valibot';
import {
  COMMENT_STATUSES,
  FEED_MEDIA_MAX_ITEMS,
  FEED_MEDIA_TYPE_MAX_LENGTH,
  FEED_STATUSES,
  FEED_TITLE_MAX_LENGTH,
  FEED_TOPICS_MAX_ITEMS,
  URL_MAX_LENGTH,
} from '../vocabulary/feeds.ts';
import { idParam, integer, isoDateTime } from './fields.ts';
import { errorOutcome } from './operation.ts';

export const TAGS = ['Feeds'];

export const INVALID = errorOutcome(
  400,
  'rest_invalid_param',
  'A parameter is malformed, out of range or unknown; `data.params` names it.',
);
export const TOPICS_INVALID = errorOutcome(
  400,
  'rest_invalid_param',
  'A topic rule is broken (`data.params.topics`): topics given while disabled, an unknown or inactive topic, ' +
    'more than one topic when `allow_multiple` is false, more than `max_topics_per_post`, none when ' +
    '`required_for_posts` or the space’s `topic_required` demands one, or a topic deleted meanwhile.',
);
export const FEED_NOT_FOUND = errorOutcome(
  404,
  'not_found',
  'No feed has this id, or the caller may not see it (a private or secret space, or unpublished).',
);
export const FORBIDDEN_MANAGE = errorOutcome(
  403,
  'rest_forbidden',
  'Only the author, a moderator of the feed’s space or a community moderator may do this.',
);

// ---- Fields -------------------------------------------------------------------------------------------------------

export const positiveInteger = (message = 'must be a positive integer') =>
  v.pipe(v.number(message), v.integer(message), v.minValue(1, message));

export const title = () =>
  v.pipe(
    v.string(),
    v.maxLength(FEED_TITLE_MAX_LENGTH, `must be at most ${FEED_TITLE_MAX_LENGTH} characters`),
  );

export const text = (max: number) =>
  v.pipe(
    v.string(),
    v.check((value) => value.trim() !== '', 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );

export const topicIds = () =>
  v.pipe(
    v.array(positiveInteger('must be an array of topic ids')),
    v.maxLength(FEED_TOPICS_MAX_ITEMS, `must hold at most ${FEED_TOPICS_MAX_ITEMS} ids`),
  );

export const httpUrl = () =>
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

export const media = () =>
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

export const status = () => v.picklist(FEED_STATUSES, `must be one of ${FEED_STATUSES.join(', ')}`);

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

/** The fields every comment row shows, in a feed's or lesson's list and in an author's comments. */
export const commentRowEntries = {
  id: integer(),
  post_id: integer(),
  parent_id: v.nullable(integer()),
  message: v.string(),
  message_rendered: v.string(),
  reactions_count: integer(),
  status: v.picklist(COMMENT_STATUSES),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
};

export const commentSchema = v.object({
  ...commentRowEntries,
  liked: v.boolean(),
  xprofile: v.nullable(feedAuthorSchema),
});

export const feedParams = v.object({ feed_id: idParam() });
