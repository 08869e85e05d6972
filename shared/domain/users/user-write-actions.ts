import { randomUUID } from 'node:crypto';
import { putAction, type TransactAction } from '../../db/transact.ts';
import { userSearchKey } from '../../db/keys/users.ts';
import type { ItemKey } from '../../db/partition.ts';
import {
  storedAppPassword,
  storedEmailGuard,
  storedSearchEntries,
  storedUser,
  storedUsernameGuard,
  type UserItem,
} from './user-item.ts';

/**
 * The writes of a user's items that other domains compose into their own transactions or batches (the import puts
 * several users in one transaction; the migration puts guards first, then the rest in batches). The users domain
 * builds every one of its items here: callers never build a key or a stored shape themselves.
 */

/**
 * The writes that create a user: the user item, the username and e-mail guards (uniqueness), the three search
 * entries (space user search by prefix) and optionally the first application password. Exposed so the import can
 * put several users in one transaction.
 */
export function userCreationActions(user: UserItem, appPasswordHash?: string): TransactAction[] {
  const actions = [
    putAction(storedUser(user), { ifAbsent: true }),
    ...userGuardActions(user),
    ...storedSearchEntries(user).map((entry) => putAction(entry)),
  ];
  if (appPasswordHash) {
    actions.push(putAction(storedAppPassword(user.id, randomUUID(), appPasswordHash, user.created_at)));
  }
  return actions;
}

/** The uniqueness guards of a new user (login, then e-mail), each created only if absent. */
export const userGuardActions = (user: Pick<UserItem, 'id' | 'username' | 'email'>): TransactAction[] => [
  putAction(storedUsernameGuard(user), { ifAbsent: true }),
  putAction(storedEmailGuard(user), { ifAbsent: true }),
];

/**
 * The rest of a user's creation once its guards are held (the user item and its search entries): plain items a
 * bulk writer (the migration) may put in batches, because the guards already make the login and e-mail its own.
 */
export const userItemsBehindGuards = (
  user: UserItem,
): { user: Record<string, unknown> & ItemKey; searchEntries: (Record<string, unknown> & ItemKey)[] } => ({
  user: storedUser(user),
  searchEntries: storedSearchEntries(user),
});

/**
 * The write that re-lists a renamed user under its new display name in the user search (its `name` entry), for the
 * transaction that renames it: the entry's key is the user's, so the new entry replaces the old one.
 */
export function userRenameActions(
  user: Pick<UserItem, 'id' | 'display_name' | 'username' | 'email'>,
  displayName: string,
): TransactAction[] {
  const nameSort = userSearchKey(user.id, 'name').sk;
  return storedSearchEntries({ ...user, display_name: displayName })
    .filter((entry) => entry.sk === nameSort)
    .map((entry) => putAction(entry));
}
