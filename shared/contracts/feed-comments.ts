import * as v from 'valibot';
import { COMMENT_MESSAGE_MAX_LENGTH, REACTION_TYPES } from '../vocabulary/feeds.ts';
import { paginatorB } from './envelopes.ts';
import { cursorQuery, integer, pageQuery, perPageQuery } from './fields.ts';
import { memberSummarySchema } from './members.ts';
import { defineOperation, missingParam } from './operation.ts';
import {
  TAGS,
  INVALID,
  FEED_NOT_FOUND,
  positiveInteger,
  text,
  feedParams,
  commentSchema,
} from './feed-schemas.ts';

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
  errors: [INVALID, missingParam('message'), FEED_NOT_FOUND],
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
  errors: [INVALID, missingParam('react_type'), FEED_NOT_FOUND],
});

export const listFeedReactions = defineOperation({
  operationId: 'listFeedReactions',
  summary: 'Who liked a feed, newest first (paginator B of member summaries)',
  description:
    'The members who liked a feed the caller may see (404 like `GET /feeds/{feed_id}` otherwise), the latest like ' +
    'first, each as a member summary. The total is the feed’s `reactions_count`; `next_page_url` carries an ' +
    'opaque `cursor`, so following it costs one page.',
  tags: TAGS,
  params: feedParams,
  query: v.object({ page: pageQuery(), per_page: perPageQuery(20), cursor: cursorQuery() }),
  response: v.object({ reactions: paginatorB(memberSummarySchema) }),
  errors: [INVALID, FEED_NOT_FOUND],
});
