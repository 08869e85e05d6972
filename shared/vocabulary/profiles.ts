/** Profile vocabularies (contract "Profile", "Member summary"; decisions.md "Users, profiles and roles"). */

/** The social networks the member summary always names (empty string when the member has none). */
export const MEMBER_SOCIAL_KEYS = ['twitter', 'youtube', 'linkedin', 'fb', 'instagram'] as const;
export type MemberSocialKey = (typeof MEMBER_SOCIAL_KEYS)[number];

/** The social links a member may set on their profile (`PUT /profile/me`); others are refused. */
export const PROFILE_SOCIAL_KEYS = [...MEMBER_SOCIAL_KEYS, 'github', 'website'] as const;
export type ProfileSocialKey = (typeof PROFILE_SOCIAL_KEYS)[number];

export const BIO_MAX_BYTES = 5_000;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 100;
/** A stored username (decisions.md): lower-case letters, digits and _, USERNAME_MIN_LENGTH..USERNAME_MAX_LENGTH. */
export const USERNAME_PATTERN = new RegExp(`^[a-z0-9_]{${USERNAME_MIN_LENGTH},${USERNAME_MAX_LENGTH}}$`);
/** A username as paths and filters take it, matched case-insensitively: `[A-Za-z0-9_-]`, at most the maximum. */
export const PATH_USERNAME_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${USERNAME_MAX_LENGTH}}$`);
