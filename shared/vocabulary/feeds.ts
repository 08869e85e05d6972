/** Feed and comment vocabularies and sizes (decisions.md "Sizes", "Topics and feeds"). */
export const FEED_TITLE_MAX_LENGTH = 192;
export const FEED_MESSAGE_MAX_LENGTH = 15_000;
export const COMMENT_MESSAGE_MAX_LENGTH = 10_000;

export const FEED_STATUSES = ['published', 'draft', 'pending', 'scheduled'] as const;
export type FeedStatus = (typeof FEED_STATUSES)[number];

/** `text` for feeds written by members, `course_lesson` for the lessons of a course (lessons are posts). */
export const POST_TYPES = ['text', 'course_lesson'] as const;
export type PostType = (typeof POST_TYPES)[number];

export const COMMENT_STATUSES = ['published', 'pending'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

export const REACTION_TYPES = ['like'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

/** `media` of a feed: at most this many `{ type, url }` entries (decisions: the payload beyond the contract's). */
export const FEED_MEDIA_MAX_ITEMS = 10;
export const FEED_MEDIA_TYPE_MAX_LENGTH = 50;
export const URL_MAX_LENGTH = 2048;

/** `GET /feeds?topics=`: at most this many topic ids (the largest `max_topics_per_post` allowed). */
export const FEED_TOPIC_FILTER_MAX = 20;
/** A body's `topics`: at most this many ids are even looked at; the configuration's limit is checked after. */
export const FEED_TOPICS_MAX_ITEMS = 100;
