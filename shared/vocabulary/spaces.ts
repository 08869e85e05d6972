import * as v from 'valibot';

/** Space and course vocabularies (decisions.md "Invitations, course admin, search, settings"). */
export const SPACE_PRIVACIES = ['public', 'private', 'secret'] as const;
export type SpacePrivacy = (typeof SPACE_PRIVACIES)[number];

export const SPACE_STATUSES = ['published', 'draft', 'archived'] as const;
export type SpaceStatus = (typeof SPACE_STATUSES)[number];

export const SPACE_TYPES = ['community', 'course'] as const;
export type SpaceType = (typeof SPACE_TYPES)[number];

/** `pending`: a join request or invitation not yet accepted; only `active` members are members. */
export const MEMBERSHIP_STATUSES = ['active', 'pending'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

export const SPACE_TITLE_MAX_LENGTH = 192;

/** Who may see a feed: public spaces and the global feed are `public`, private and secret ones `members`. */
export const FEED_VISIBILITIES = ['public', 'members'] as const;
export type FeedVisibility = (typeof FEED_VISIBILITIES)[number];

/**
 * The fields of a link of a space's (or a course's) menu (`settings.links[]`); switches are `yes`/`no`. The contract
 * answers them in an object and the import accepts them in a strict one (unknown keys refused).
 */
export const SPACE_LINK_FIELDS = {
  slug: v.string(),
  title: v.string(),
  emoji: v.optional(v.string()),
  enabled: v.optional(v.picklist(['yes', 'no'])),
  new_tab: v.optional(v.picklist(['yes', 'no'])),
  permalink: v.optional(v.string()),
};
