import * as v from 'valibot';
import { indexEntry, type ItemKey } from '../../db/partition.ts';
import {
  appPasswordIdOf,
  appPasswordKey,
  emailGuardKey,
  tokenKey,
  userKey,
  userSearchEntries,
  userSearchKey,
  userSearchSort,
  usernameGuardKey,
} from '../../db/keys/users.ts';
import { COMMUNITY_ROLES, HOST_ROLES, PROFILE_STATUSES } from '../../vocabulary/roles.ts';

const integer = v.pipe(v.number(), v.integer());

/** A user as stored (`USER#<id>` / `USER`). Mappers turn it into the contract's shapes; it never leaves as is. */
export const UserItemSchema = v.object({
  id: integer,
  username: v.string(),
  email: v.string(),
  display_name: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  status: v.picklist(PROFILE_STATUSES),
  host_role: v.picklist(HOST_ROLES),
  community_roles: v.array(v.picklist(COMMUNITY_ROLES)),
  avatar: v.string(),
  cover_photo: v.string(),
  /** Markdown source; `short_description_rendered` is derived on write. */
  short_description: v.string(),
  short_description_rendered: v.string(),
  website: v.string(),
  location: v.string(),
  social_links: v.record(v.string(), v.string()),
  badge_slugs: v.array(v.string()),
  is_verified: integer,
  total_points: integer,
  followers_count: integer,
  followings_count: integer,
  /** UTC ISO timestamps. */
  created_at: v.string(),
  updated_at: v.string(),
  last_activity: v.string(),
});
export type UserItem = v.InferOutput<typeof UserItemSchema>;

/** A uniqueness guard (username or e-mail) names the user it belongs to. */
export const GuardItemSchema = v.object({ user_id: integer });

/**
 * An application password: only its keyed hash is stored. Its id is the tail of its sort key (`APPPW#<uuid>`),
 * read back so the authorizer can re-read exactly the credential that matched.
 */
export const AppPasswordItemSchema = v.pipe(
  v.object({ sk: v.string(), hash: v.string() }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const id = appPasswordIdOf(dataset.value.sk);
    if (id === undefined) {
      addIssue({ message: 'an application password sort key is APPPW#<id>' });
      return NEVER;
    }
    return { id, hash: dataset.value.hash };
  }),
);
export type AppPasswordItem = v.InferOutput<typeof AppPasswordItemSchema>;

/** A bearer token `<id>.<secret>`: looked up by id, only the secret's keyed hash is stored. */
export const TokenItemSchema = v.object({ user_id: integer, hash: v.string() });
export type TokenItem = v.InferOutput<typeof TokenItemSchema>;

export const storedToken = (tokenId: string, userId: number, hash: string, createdAt: string) => ({
  ...tokenKey(tokenId),
  entity: 'token',
  user_id: userId,
  hash,
  created_at: createdAt,
});

export const storedUser = (user: UserItem) => ({ ...userKey(user.id), entity: 'user', ...user });

export const storedUsernameGuard = (user: Pick<UserItem, 'id' | 'username'>) => ({
  ...usernameGuardKey(user.username),
  entity: 'username_guard',
  user_id: user.id,
});

export const storedEmailGuard = (user: Pick<UserItem, 'id' | 'email'>) => ({
  ...emailGuardKey(user.email),
  entity: 'email_guard',
  user_id: user.id,
});

/**
 * What a user search entry carries of its user besides the value it lists: everything the space user search answers
 * and decides on (the three listed fields, which one a user is listed at, the photo, and the status that excludes a
 * suspended or banned account), so a search reads no user item. Every write of these fields on the user item
 * writes them on the user's three entries in the same transaction (`userSearchEntryUpdates`); `storage:upgrade`
 * fills them on entries written before (`upgradeUserSearchEntries`).
 */
export const SEARCHED_USER_FIELDS = ['display_name', 'username', 'email', 'avatar', 'status'] as const;
export const SearchedUserSchema = v.object({
  id: integer,
  display_name: v.string(),
  username: v.string(),
  email: v.string(),
  avatar: v.string(),
  status: v.picklist(PROFILE_STATUSES),
});
export type SearchedUser = v.InferOutput<typeof SearchedUserSchema>;

/** One search entry per field (display name, login, e-mail) for the space user search's prefix match. */
export function storedSearchEntries(user: SearchedUser) {
  const fields = [
    ['name', user.display_name],
    ['login', user.username],
    ['email', user.email],
  ] as const;
  const carried = Object.fromEntries(SEARCHED_USER_FIELDS.map((name) => [name, user[name]]));
  return fields.map(([field, value]) => ({
    ...userSearchKey(user.id, field),
    ...indexEntry(userSearchEntries(), userSearchSort(value, user.id)),
    entity: 'user_search',
    user_id: user.id,
    ...carried,
  }));
}

export const storedAppPassword = (
  userId: number,
  passwordId: string,
  hash: string,
  createdAt: string,
  name = 'default',
): Record<string, unknown> & ItemKey => ({
  ...appPasswordKey(userId, passwordId),
  entity: 'app_password',
  user_id: userId,
  name,
  hash,
  created_at: createdAt,
});
