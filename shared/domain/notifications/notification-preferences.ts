import {
  type DigestFrequency as Digest,
  EMAIL_PREFERENCE_KEYS,
  type EmailPreferenceKey as EmailKey,
  type NotificationType,
  type PushPreferenceKey as PushKey,
} from '../../vocabulary/notifications.ts';

export interface NotificationPreferences {
  email_notifications: Record<EmailKey, boolean>;
  push_notifications: Record<PushKey, boolean>;
  digest_frequency: Digest;
}

export interface PreferencesChange {
  email_notifications?: Partial<Record<EmailKey, boolean | undefined>> | undefined;
  push_notifications?: Partial<Record<PushKey, boolean | undefined>> | undefined;
  digest_frequency?: Digest | undefined;
}

/** decisions.md: e-mail on except new_reaction; push all on; no digest. */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  email_notifications: {
    new_comment: true,
    new_reaction: false,
    new_follower: true,
    mention: true,
    space_invite: true,
  },
  push_notifications: { new_comment: true, new_reaction: true, mention: true },
  digest_frequency: 'never',
};

/**
 * The e-mail flag that governs a notification type: `new_reply` follows `new_comment`; types without a flag
 * (space_join, course_enrollment, lesson_complete) are in-app only.
 */
export function emailFlagFor(type: NotificationType): EmailKey | undefined {
  if (type === 'new_reply') return 'new_comment';
  return (EMAIL_PREFERENCE_KEYS as readonly string[]).includes(type) ? (type as EmailKey) : undefined;
}

export const wantsEmail = (preferences: NotificationPreferences, type: NotificationType): boolean => {
  const flag = emailFlagFor(type);
  return flag !== undefined && preferences.email_notifications[flag];
};
