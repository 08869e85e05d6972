import { randomUUID } from 'node:crypto';
import { putAction, type TransactAction, updateAction } from '../../db/transact.ts';
import { userSearchKey, userSearchSort } from '../../db/keys/users.ts';
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

/** The fields of a user search entry a change of the user item moves (the login and e-mail never change). */
export type SearchedUserChanges = Partial<Pick<UserItem, 'display_name' | 'avatar' | 'status'>>;

/**
 * The writes that keep a user's three search entries true to a change of the user item, for the transaction that
 * makes the change: each entry `SET`s only the changed fields, so concurrent changes of different fields (a status
 * and a photo) both land, and changes of one field land in the order of their transactions, as on the user item.
 * A new display name also re-lists the user under it (the `name` entry's index sort key; its key is the user's, so
 * the entry moves). No change, no write.
 */
export function userSearchEntryUpdates(userId: number, changes: SearchedUserChanges): TransactAction[] {
  const set = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (set.length === 0) return [];
  const names = Object.fromEntries(set.map(([name], index) => [`#c${index}`, name]));
  const values = Object.fromEntries(set.map(([, value], index) => [`:c${index}`, value]));
  const assignments = set.map((_, index) => `#c${index} = :c${index}`);
  return (['name', 'login', 'email'] as const).map((field) => {
    const relisted = field === 'name' && changes.display_name !== undefined;
    return updateAction(userSearchKey(userId, field), {
      UpdateExpression: `SET ${[...assignments, ...(relisted ? ['#sort = :sort'] : [])].join(', ')}`,
      ExpressionAttributeNames: { ...names, ...(relisted ? { '#sort': 'gsi3sk' } : {}) },
      ExpressionAttributeValues: {
        ...values,
        ...(relisted ? { ':sort': userSearchSort(changes.display_name ?? '', userId) } : {}),
      },
    });
  });
}
