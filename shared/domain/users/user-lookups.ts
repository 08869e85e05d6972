import {
  emailGuardKey,
  userKey,
  userSearchEntries,
  userSearchKey,
  usernameGuardKey,
} from '../../db/keys/users.ts';
import { itemRead, itemsRead, mapRead } from '../../db/read-together.ts';
import { batchGetItems, getItem, queryAll } from '../../db/reads.ts';
import * as v from 'valibot';
import { GuardItemSchema, type UserItem, UserItemSchema } from './user-item.ts';

/**
 * The users domain's public reads (ACCESS_PATTERNS.md, "Users"): a user by id (GetItem), by username or e-mail
 * (guard GetItem, then GetItem), many by id (BatchGetItem), and who holds a set of logins and e-mails. Other domains
 * read users only through these; the answers are parsed users (no keys), never stored items.
 */

/** The users holding these logins and e-mails (guard items, BatchGetItem, strongly consistent). */
export async function findGuardHolders(
  usernames: readonly string[],
  emails: readonly string[],
): Promise<{ byUsername: Map<string, number>; byEmail: Map<string, number> }> {
  const keys = [...usernames.map(usernameGuardKey), ...emails.map(emailGuardKey)];
  const found = await batchGetItems(keys, v.object({ pk: v.string(), user_id: v.number() }), {
    consistent: true,
  });
  const holderOf = new Map(found.map((guard) => [guard.pk, guard.user_id]));
  const byUsername = new Map<string, number>();
  const byEmail = new Map<string, number>();
  for (const name of usernames) {
    const holder = holderOf.get(usernameGuardKey(name).pk);
    if (holder !== undefined) byUsername.set(name, holder);
  }
  for (const email of emails) {
    const holder = holderOf.get(emailGuardKey(email).pk);
    if (holder !== undefined) byEmail.set(email, holder);
  }
  return { byUsername, byEmail };
}

/** `consistent` where a decision must see the latest write (authentication after a suspension). */
export function findUserById(
  userId: number,
  options: { consistent?: boolean } = {},
): Promise<UserItem | undefined> {
  return getItem(userKey(userId), UserItemSchema, options);
}

/**
 * `findUserById` as a read to send with others in one BatchGetItem (shared/db/read-together.ts); `consistent`
 * makes the whole batch strongly consistent.
 */
export const userRead = (userId: number, options: { consistent?: boolean } = {}) =>
  itemRead(userKey(userId), UserItemSchema, options);

/** `findUsersByIds` as a read to send with others in one BatchGetItem, by id. */
export const usersByIdsRead = (userIds: readonly number[]) =>
  mapRead(
    itemsRead([...new Set(userIds)].map(userKey), UserItemSchema),
    (users) => new Map(users.map((user) => [user.id, user])),
  );

export async function findUserIdByUsername(
  username: string,
  options: { consistent?: boolean } = {},
): Promise<number | undefined> {
  return (await getItem(usernameGuardKey(username), GuardItemSchema, options))?.user_id;
}

/** `findUserIdByUsername` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export const userIdByUsernameRead = (username: string) =>
  mapRead(itemRead(usernameGuardKey(username), GuardItemSchema), (guard) => guard?.user_id);

export async function findUserIdByEmail(email: string): Promise<number | undefined> {
  return (await getItem(emailGuardKey(email), GuardItemSchema))?.user_id;
}

export async function findUserByUsername(username: string): Promise<UserItem | undefined> {
  const userId = await findUserIdByUsername(username);
  return userId === undefined ? undefined : findUserById(userId);
}

/** Many users by id (BatchGetItem, ≤ 100 keys per call); missing ids are simply absent from the map. */
export async function findUsersByIds(userIds: readonly number[]): Promise<Map<number, UserItem>> {
  const users = await batchGetItems([...new Set(userIds)].map(userKey), UserItemSchema);
  return new Map(users.map((user) => [user.id, user]));
}

const SearchEntrySchema = v.object({ user_id: v.pipe(v.number(), v.integer()) });

/**
 * The user search index (GSI3 `USERSEARCH`, one entry per display name, login and e-mail, sorted by lower-cased
 * value): the user ids of the entries whose value starts with `prefix` (every entry without one), in value order,
 * one Query page of at most `pageSize` entries per yield. A user matching on several fields appears once per
 * field. The caller stops iterating when it has enough, so a search reads only the pages it uses.
 */
export async function* userIdsByNamePrefix(
  prefix: string | undefined,
  pageSize: number,
): AsyncGenerator<number[]> {
  for await (const page of queryAll(userSearchEntries(prefix), SearchEntrySchema, { pageSize })) {
    yield page.map((entry) => entry.user_id);
  }
}

const LoginEntrySchema = v.object({ sk: v.string(), user_id: v.pipe(v.number(), v.integer()) });

/**
 * Every user's id, once each, one search-index page at a time (operator paths that visit every member, such as
 * `storage:upgrade`; never a request): the login entries of the user search index, which every user has.
 */
export async function* everyUserId(pageSize = 200): AsyncGenerator<number[]> {
  const loginSort = userSearchKey(0, 'login').sk;
  for await (const page of queryAll(userSearchEntries(), LoginEntrySchema, { pageSize })) {
    yield page.filter((entry) => entry.sk === loginSort).map((entry) => entry.user_id);
  }
}
