import { userKey } from '../../db/keys/users.ts';
import { readTogether } from '../../db/read-together.ts';
import { transactWriteIfConditionsHold, updateAction } from '../../db/transact.ts';
import { findUserById, type UserItem, userRead, userSearchEntryUpdates } from '../users/index.ts';

/**
 * Profiles, one function per access pattern (ACCESS_PATTERNS.md, "Profiles"): a member's user item (profile
 * fields, follow counters and `total_points` are all on it), and the update of the profile fields.
 */

export interface ProfileRecord {
  readonly user: UserItem;
}

/** The user item (one GetItem); undefined when there is no such user. */
export async function findProfileRecord(userId: number): Promise<ProfileRecord | undefined> {
  const user = await findUserById(userId);
  return user === undefined ? undefined : { user };
}

/**
 * The member and the caller (for a write that counts on the member and names the caller) in one strongly
 * consistent BatchGetItem: the member's counters then include every write that completed before it.
 */
export async function findProfileAndActor(
  userId: number,
  actorId: number,
): Promise<{ user: UserItem | undefined; actor: UserItem | undefined }> {
  const [user, actor] = await readTogether([
    userRead(userId, { consistent: true }),
    userRead(actorId, { consistent: true }),
  ]);
  return { user, actor };
}

/** The user item, strongly consistent (its counters include every write that completed before the read). */
export async function findProfileRecordConsistent(userId: number): Promise<ProfileRecord | undefined> {
  const user = await findUserById(userId, { consistent: true });
  return user === undefined ? undefined : { user };
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
  user: UserItem,
  fields: ProfileFields,
  updatedAt: string,
): Promise<boolean> {
  const userId = user.id;
  const entries = Object.entries({ ...fields, updated_at: updatedAt });
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = entries.map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  // The fields the user search entries carry are written on them in the same TWI (a new display name re-lists the
  // user under it). Whenever given, not only when they differ from the user as read: a concurrent update may have
  // moved them since the read, and the entries must end as the user item does.
  const searchUpdates = userSearchEntryUpdates(userId, {
    display_name: fields.display_name,
    avatar: fields.avatar,
  });
  const outcome = await transactWriteIfConditionsHold([
    updateAction(userKey(userId), {
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
    ...searchUpdates,
  ]);
  return outcome.written;
}
