import * as v from 'valibot';
import { userKey, userStatsKey } from '../../db/keys/users.ts';
import { getItems } from '../../db/reads.ts';
import { transactWriteIfConditionsHold, updateAction } from '../../db/transact.ts';
import { type UserItem, UserItemSchema } from '../users/index.ts';

/**
 * Profiles, one function per access pattern (ACCESS_PATTERNS.md, "Profiles and follows"): a member's user item
 * and stats item in one BatchGetItem, and the update of the profile fields.
 */

export type Counters = Readonly<Record<string, number>>;

/** The numeric counters of a stats item (other attributes dropped). */
const CountersSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform(
    (raw): Counters =>
      Object.fromEntries(
        Object.entries(raw).flatMap(([name, value]) => (typeof value === 'number' ? [[name, value]] : [])),
      ),
  ),
);

export interface ProfileRecord {
  readonly user: UserItem;
  readonly stats: Counters;
}

/** The user item and its stats item (one BatchGetItem); undefined when there is no such user. */
export async function findProfileRecord(userId: number): Promise<ProfileRecord | undefined> {
  const [user, stats] = await getItems<[UserItem, Counters]>([
    { key: userKey(userId), schema: UserItemSchema },
    { key: userStatsKey(userId), schema: CountersSchema },
  ]);
  return user === undefined ? undefined : { user, stats: stats ?? {} };
}

/** The profile fields `PUT /profile/me` may change. */
export type ProfileFields = Partial<
  Pick<
    UserItem,
    | 'display_name'
    | 'first_name'
    | 'last_name'
    | 'short_description'
    | 'short_description_rendered'
    | 'location'
    | 'website'
    | 'avatar'
    | 'cover_photo'
    | 'social_links'
  >
>;

/**
 * Sets the given fields and `updated_at` in one conditional update (the user must exist): all or nothing, so a
 * refused request changes nothing. Answers false when the user is gone.
 */
export async function updateProfileFields(
  userId: number,
  fields: ProfileFields,
  updatedAt: string,
): Promise<boolean> {
  const entries = Object.entries({ ...fields, updated_at: updatedAt });
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = entries.map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  const outcome = await transactWriteIfConditionsHold([
    updateAction(userKey(userId), {
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  ]);
  return outcome.written;
}
