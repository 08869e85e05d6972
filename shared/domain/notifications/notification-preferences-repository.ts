import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import * as v from 'valibot';
import { digestSubscribers, notificationPreferencesKey } from '../../db/keys/notifications.ts';
import { pad } from '../../db/keys/sort.ts';
import { indexEntry, withSortRange } from '../../db/partition.ts';
import { getItem, parseItem, queryItems } from '../../db/reads.ts';
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

/**
 * Merges the keys given with one UpdateItem and answers the preferences now in force. A digest frequency of
 * `daily` or `weekly` lists the member among that frequency's subscribers (the digest job reads that list, never
 * every user); `never` takes them off it.
 */
export async function mergeNotificationPreferences(
  userId: number,
  change: PreferencesChange,
): Promise<NotificationPreferences> {
  const attributes = storedPreferenceChanges(change);
  const digest = change.digest_frequency;
  const subscribers = digestSubscribers(digest ?? 'never');
  if (digest === 'daily' || digest === 'weekly') {
    Object.assign(attributes, indexEntry(subscribers, pad(userId)));
  }
  const assignments = Object.entries(attributes);
  const removals = digest === 'never' ? [subscribers.partitionKey, subscribers.sortKey] : [];
  const result = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: notificationPreferencesKey(userId),
      UpdateExpression: [
        `SET ${assignments.map((_, index) => `#p${index} = :p${index}`).join(', ')}`,
        ...(removals.length > 0 ? [`REMOVE ${removals.map((_, index) => `#r${index}`).join(', ')}`] : []),
      ].join(' '),
      ExpressionAttributeNames: {
        ...Object.fromEntries(assignments.map(([name], index) => [`#p${index}`, name])),
        ...Object.fromEntries(removals.map((name, index) => [`#r${index}`, name])),
      },
      ExpressionAttributeValues: Object.fromEntries(
        assignments.map(([, value], index) => [`:p${index}`, value]),
      ),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return parseItem(NotificationPreferencesItemSchema, result.Attributes ?? {});
}

/** One page of a frequency's subscribers after user id `after` (the digest planner's walk). */
export async function querySubscribersAfter(
  frequency: 'daily' | 'weekly',
  after: number,
  limit: number,
): Promise<{ userIds: number[]; more: boolean }> {
  const partition = withSortRange(digestSubscribers(frequency), { from: pad(after + 1) });
  const found = await queryItems(partition, SubscriberSchema, { ascending: true, limit: limit + 1 });
  return { userIds: found.slice(0, limit).map((entry) => entry.user_id), more: found.length > limit };
}

/** The preferences item as a subscriber entry: its owner's id is in its key (`USER#<id>`). */
const SubscriberSchema = v.pipe(
  v.object({ pk: v.pipe(v.string(), v.regex(/^USER#\d+$/)) }),
  v.transform(({ pk }) => ({ user_id: Number(pk.slice('USER#'.length)) })),
);

/** What the digest job needs of a member's preferences item: the preferences and when each digest last went. */
export async function findDigestState(userId: number): Promise<{
  preferences: NotificationPreferences;
  lastDigestAt: { daily: string | undefined; weekly: string | undefined };
}> {
  const raw = await getItem(notificationPreferencesKey(userId), v.record(v.string(), v.unknown()));
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    preferences: raw ? parseItem(NotificationPreferencesItemSchema, raw) : DEFAULT_PREFERENCES,
    lastDigestAt: {
      daily: text(raw?.['last_digest_at:daily']),
      weekly: text(raw?.['last_digest_at:weekly']),
    },
  };
}
