/**
 * The notification vocabulary: the contract's notification types, the preference flags and the digest
 * frequencies. Contracts build their schemas from these lists and the domain its rules, so neither imports the
 * other (README, import rules).
 */

/** The contract's notification `type` values (community-api.md, Events). */
export const NOTIFICATION_TYPES = [
  'new_comment',
  'new_reply',
  'new_reaction',
  'new_follower',
  'mention',
  'space_invite',
  'space_join',
  'course_enrollment',
  'lesson_complete',
] as const;

/** Which notification types a recipient can ask to receive by e-mail or push (contract: Notification preferences). */
export const EMAIL_PREFERENCE_KEYS = [
  'new_comment',
  'new_reaction',
  'new_follower',
  'mention',
  'space_invite',
] as const;
export const PUSH_PREFERENCE_KEYS = ['new_comment', 'new_reaction', 'mention'] as const;
export const DIGEST_FREQUENCIES = ['daily', 'weekly', 'never'] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type EmailPreferenceKey = (typeof EMAIL_PREFERENCE_KEYS)[number];
export type PushPreferenceKey = (typeof PUSH_PREFERENCE_KEYS)[number];
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];
