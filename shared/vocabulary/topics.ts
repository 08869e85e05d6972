/** Topic vocabularies and sizes (contract "Topic", decisions.md "Topics and feeds", "Sizes"). */
export const TOPIC_STATUSES = ['active', 'inactive'] as const;
export type TopicStatus = (typeof TOPIC_STATUSES)[number];

export const TOPIC_TITLE_MAX_LENGTH = 192;
export const TOPIC_SLUG_MAX_LENGTH = 100;

/** `#RGB` or `#RRGGBB`. */
export const TOPIC_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const TOPIC_DISPLAY_STYLES = ['badge', 'tag', 'label'] as const;
export type TopicDisplayStyle = (typeof TOPIC_DISPLAY_STYLES)[number];
