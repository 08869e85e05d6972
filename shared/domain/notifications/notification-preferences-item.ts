import * as v from 'valibot';
import {
  DIGEST_FREQUENCIES,
  EMAIL_PREFERENCE_KEYS,
  PUSH_PREFERENCE_KEYS,
} from '../../vocabulary/notifications.ts';
import { DEFAULT_PREFERENCES, type NotificationPreferences } from './notification-preferences.ts';

/**
 * Preferences are stored flat (`email:<key>`, `push:<key>`, `digest_frequency`) so a PUT merges with one UpdateItem
 * SET of the keys given: no read-then-write, and two concurrent PUTs of different keys both hold. Missing keys
 * take the defaults, so a member who never saved preferences has no item at all.
 */
export const NotificationPreferencesItemSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform((stored): NotificationPreferences => {
    const pick = <K extends string>(prefix: string, keys: readonly K[], defaults: Record<K, boolean>) =>
      Object.fromEntries(
        keys.map((key) => {
          const value = stored[`${prefix}:${key}`];
          return [key, typeof value === 'boolean' ? value : defaults[key]];
        }),
      ) as Record<K, boolean>;
    const digest = DIGEST_FREQUENCIES.find((frequency) => frequency === stored.digest_frequency);
    return {
      email_notifications: pick('email', EMAIL_PREFERENCE_KEYS, DEFAULT_PREFERENCES.email_notifications),
      push_notifications: pick('push', PUSH_PREFERENCE_KEYS, DEFAULT_PREFERENCES.push_notifications),
      digest_frequency: digest ?? DEFAULT_PREFERENCES.digest_frequency,
    };
  }),
);

/** The flat attributes a change sets (undefined values are left alone). */
export function storedPreferenceChanges(change: {
  email_notifications?: Readonly<Record<string, boolean | undefined>> | undefined;
  push_notifications?: Readonly<Record<string, boolean | undefined>> | undefined;
  digest_frequency?: string | undefined;
}): Record<string, unknown> {
  const attributes: Record<string, unknown> = { entity: 'notification_preferences' };
  for (const [key, value] of Object.entries(change.email_notifications ?? {})) {
    if (value !== undefined) attributes[`email:${key}`] = value;
  }
  for (const [key, value] of Object.entries(change.push_notifications ?? {})) {
    if (value !== undefined) attributes[`push:${key}`] = value;
  }
  if (change.digest_frequency !== undefined) attributes.digest_frequency = change.digest_frequency;
  return attributes;
}
