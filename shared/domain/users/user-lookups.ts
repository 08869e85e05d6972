import {
  emailGuardKey,
  userKey,
  userSearchEntries,
  userSearchFieldOf,
  userSearchKey,
  usernameGuardKey,
} from '../../db/keys/users.ts';
import { itemRead, itemsRead, mapRead } from '../../db/read-together.ts';
import { batchGetItems, getItem, parseItem, queryAll, queryWindow } from '../../db/reads.ts';
import * as v from 'valibot';
import {
  GuardItemSchema,
  type SearchedUser,
  SearchedUserSchema,
  type UserItem,
  UserItemSchema,
} from './user-item.ts';

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

const WindowEntrySchema = v.object({
  sk: v.string(),
  user_id: v.pipe(v.number(), v.integer()),
  gsi3sk: v.string(),
});

/** A user search index entry as a window reads it: whose it is, the lower-cased value, where to resume after it. */
export interface UserSearchEntry {
  readonly userId: number;
  /** The field the entry lists: `name` (display name), `login` or `email`. */
  readonly field: string;
  readonly value: string;
  readonly position: Record<string, string>;
  /**
   * The user as the entry carries it (`SEARCHED_USER_FIELDS`, written with every change of those fields);
   * undefined on an entry written before entries carried it (until `storage:upgrade`), whose reader reads the user.
   */
  readonly user: SearchedUser | undefined;
}

/**
 * One window of the user search index: at most `limit` entries whose value starts with `prefix` (every entry
 * without one), in value order, from `after` (a position an earlier window handed out) on; `next` is where the
 * index goes on, undefined at its end. One Query whatever the index holds.
 */
export async function userSearchWindow(
  prefix: string | undefined,
  limit: number,
  after?: Record<string, string>,
): Promise<{ entries: UserSearchEntry[]; next: Record<string, string> | undefined }> {
  const { items, next } = await queryWindow(userSearchEntries(prefix), v.record(v.string(), v.unknown()), {
    limit,
    after,
  });
  return {
    entries: items.map(({ item: raw, position }) => {
      const item = parseItem(WindowEntrySchema, raw);
      const carried = v.safeParse(SearchedUserSchema, { ...raw, id: item.user_id });
      return {
        userId: item.user_id,
        field: userSearchFieldOf(item.sk),
        // The sort key is `<lower-cased value>#<padded id>` (userSearchSort); the value may itself hold a `#`.
        value: item.gsi3sk.slice(0, item.gsi3sk.lastIndexOf('#')),
        position,
        user: carried.success ? carried.output : undefined,
      };
    }),
    next,
  };
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
