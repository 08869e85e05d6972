import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type DIGEST_FREQUENCIES,
  EMAIL_PREFERENCE_KEYS,
  PUSH_PREFERENCE_KEYS,
} from '../../vocabulary/notifications.ts';
import { db, tableName } from '../../db/client.ts';
import { notificationPreferencesKey } from '../../db/keys.ts';
import type { NotificationType } from './notification-item.ts';

type EmailKey = (typeof EMAIL_PREFERENCE_KEYS)[number];
type PushKey = (typeof PUSH_PREFERENCE_KEYS)[number];
type Digest = (typeof DIGEST_FREQUENCIES)[number];

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

/**
 * Stored flat (`email:<key>`, `push:<key>`, `digest_frequency`) so a PUT merges with one UpdateItem SET of the
 * keys given: no read-then-write, and two concurrent PUTs of different keys both hold.
 */
function fromStored(raw: Record<string, unknown> | undefined): NotificationPreferences {
  const stored = raw ?? {};
  const pick = <K extends string>(prefix: string, keys: readonly K[], defaults: Record<K, boolean>) =>
    Object.fromEntries(
      keys.map((key) => {
        const value = stored[`${prefix}:${key}`];
        return [key, typeof value === 'boolean' ? value : defaults[key]];
      }),
    ) as Record<K, boolean>;
  const digest = stored.digest_frequency;
  return {
    email_notifications: pick('email', EMAIL_PREFERENCE_KEYS, DEFAULT_PREFERENCES.email_notifications),
    push_notifications: pick('push', PUSH_PREFERENCE_KEYS, DEFAULT_PREFERENCES.push_notifications),
    digest_frequency: typeof digest === 'string' ? (digest as Digest) : DEFAULT_PREFERENCES.digest_frequency,
  };
}

export async function findNotificationPreferences(userId: number): Promise<NotificationPreferences> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: notificationPreferencesKey(userId) }),
  );
  return fromStored(result.Item);
}

export async function mergeNotificationPreferences(
  userId: number,
  change: PreferencesChange,
): Promise<NotificationPreferences> {
  const assignments: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(change.email_notifications ?? {})) {
    if (value !== undefined) assignments.push([`email:${key}`, value]);
  }
  for (const [key, value] of Object.entries(change.push_notifications ?? {})) {
    if (value !== undefined) assignments.push([`push:${key}`, value]);
  }
  if (change.digest_frequency !== undefined) assignments.push(['digest_frequency', change.digest_frequency]);
  assignments.push(['entity', 'notification_preferences']);
  const result = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: notificationPreferencesKey(userId),
      UpdateExpression: `SET ${assignments.map((_, index) => `#p${index} = :p${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(assignments.map(([name], index) => [`#p${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(
        assignments.map(([, value], index) => [`:p${index}`, value]),
      ),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return fromStored(result.Attributes);
}
