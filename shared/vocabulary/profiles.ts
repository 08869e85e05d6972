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
