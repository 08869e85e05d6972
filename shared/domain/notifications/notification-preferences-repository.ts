import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { notificationPreferencesKey } from '../../db/keys/notifications.ts';
import { getItem, parseItem } from '../../db/reads.ts';
import {
  DEFAULT_PREFERENCES,
  type NotificationPreferences,
  type PreferencesChange,
} from './notification-preferences.ts';
import {
  NotificationPreferencesItemSchema,
  storedPreferenceChanges,
} from './notification-preferences-item.ts';

/** A member's preferences: one GetItem; defaults when none were ever saved. */
export async function findNotificationPreferences(userId: number): Promise<NotificationPreferences> {
  return (
    (await getItem(notificationPreferencesKey(userId), NotificationPreferencesItemSchema)) ??
    DEFAULT_PREFERENCES
  );
}

/** Merges the keys given with one UpdateItem SET and answers the preferences now in force. */
export async function mergeNotificationPreferences(
  userId: number,
  change: PreferencesChange,
): Promise<NotificationPreferences> {
  const assignments = Object.entries(storedPreferenceChanges(change));
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
  return parseItem(NotificationPreferencesItemSchema, result.Attributes ?? {});
}
