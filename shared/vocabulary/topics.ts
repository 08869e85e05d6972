/** Topic vocabularies and sizes (contract "Topic", decisions.md "Topics and feeds", "Sizes"). */
export const TOPIC_STATUSES = ['active', 'inactive'] as const;
export type TopicStatus = (typeof TOPIC_STATUSES)[number];

export const TOPIC_TITLE_MAX_LENGTH = 192;
export const TOPIC_SLUG_MAX_LENGTH = 100;
/** Not given by the contract or the decisions; the same bounds the operator import applies. */
export const TOPIC_DESCRIPTION_MAX_LENGTH = 5000;
export const TOPIC_ICON_MAX_LENGTH = 500;
/**
 * Display order. Sort keys pad serials to 12 digits, so a serial must stay below 10^12; a caller may set up to
 * 999 999 999, which leaves the default (one more than the largest) room to grow.
 */
export const TOPIC_SERIAL_MAX = 999_999_999;
/** The longest `search` term of the topics list (a title is at most this long, so a longer term matches nothing). */
export const TOPIC_SEARCH_MAX_LENGTH = TOPIC_TITLE_MAX_LENGTH;

/** `#RGB` or `#RRGGBB`. */
export const TOPIC_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const TOPIC_DISPLAY_STYLES = ['badge', 'tag', 'label'] as const;
export type TopicDisplayStyle = (typeof TOPIC_DISPLAY_STYLES)[number];

/** decisions.md: `max_topics_per_post` is allowed in 1..20. */
export const MAX_TOPICS_PER_POST_MIN = 1;
export const MAX_TOPICS_PER_POST_MAX = 20;
