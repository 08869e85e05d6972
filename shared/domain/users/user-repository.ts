import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { IdTaken } from '../../db/ids.ts';
import {
  appPasswordKey,
  emailGuardKey,
  tokenKey,
  userAppPasswords,
  userKey,
  usernameGuardKey,
} from '../../db/keys/users.ts';
import { itemRead, itemsRead, mapRead } from '../../db/read-together.ts';
import { batchGetItems, getItem, getItems, queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  MAX_TRANSACTION_ACTIONS,
  putAction,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import { AppError } from '../../errors/app-error.ts';
import type { ItemKey } from '../../db/partition.ts';
import * as v from 'valibot';
import type { ProfileStatus } from '../../vocabulary/roles.ts';
import { nowIso } from '../dates.ts';
import {
  type AppPasswordItem,
  AppPasswordItemSchema,
  GuardItemSchema,
  storedAppPassword,
  storedEmailGuard,
  storedSearchEntries,
  storedToken,
  storedUser,
  storedUsernameGuard,
  type TokenItem,
  TokenItemSchema,
  type UserItem,
  UserItemSchema,
} from './user-item.ts';

/**
 * Users and their credentials, one method per access pattern (ACCESS_PATTERNS.md, "Users" and "Authorizer"): by id
 * (GetItem), by username or e-mail (guard GetItem → GetItem), many by id (BatchGetItem), app passwords of a user
 * (Query in the user partition), a token by id, a user with one credential (BatchGetItem), status changes and
 * revocations.
 */

/** Which stored credential a secret matched: one application password of a user, or one bearer token. */
export type CredentialRef =
  | { readonly kind: 'app_password'; readonly userId: number; readonly passwordId: string }
  | { readonly kind: 'token'; readonly tokenId: string };

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

/**
 * Creates one user atomically; a taken login or e-mail is a 409 naming which; a taken id (the user item's own
 * guard, action 0, and nothing else) is `IdTaken`, for the caller to draw another.
 */
export async function insertUser(user: UserItem, appPasswordHash?: string): Promise<void> {
  const outcome = await transactWriteIfConditionsHold(userCreationActions(user, appPasswordHash));
  if (outcome.written) return;
  if (outcome.failed.includes(1))
    throw new AppError('existing_user_login', 409, 'Sorry, that username already exists!');
  if (outcome.failed.includes(2)) {
    throw new AppError('existing_user_email', 409, 'Sorry, that email address is already used!');
  }
  if (outcome.failed.includes(0)) throw new IdTaken(user.id);
  throw new Error(`User ${user.id} could not be created (conditions ${outcome.failed.join(', ')} failed)`);
}

export async function addAppPassword(userId: number, hash: string, name = 'default'): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: storedAppPassword(userId, randomUUID(), hash, new Date().toISOString(), name),
    }),
  );
}

/** `consistent` where a decision must see the latest write (authentication after a suspension). */
export function findUserById(
  userId: number,
  options: { consistent?: boolean } = {},
): Promise<UserItem | undefined> {
  return getItem(userKey(userId), UserItemSchema, options);
}

/** `findUserById` as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export const userRead = (userId: number) => itemRead(userKey(userId), UserItemSchema);

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

/** A user's application passwords, id and hash (a handful per user; one Query in the user partition). */
export function listAppPasswords(
  userId: number,
  options: { consistent?: boolean } = {},
): Promise<AppPasswordItem[]> {
  return queryItems(userAppPasswords(userId), AppPasswordItemSchema, options);
}

/**
 * A user and one of their credentials in one round trip (BatchGetItem), both strongly consistent: what the
 * authorizer re-reads on every request, because a status, a role or a revocation may have changed since the
 * secret was verified. `credentialHash` is undefined when the credential is gone or belongs to someone else.
 */
export async function findUserWithCredential(
  userId: number,
  credential: CredentialRef,
): Promise<{ user: UserItem | undefined; credentialHash: string | undefined }> {
  if (credential.kind === 'app_password') {
    const [user, password] = await getItems<[UserItem, AppPasswordItem]>(
      [
        { key: userKey(userId), schema: UserItemSchema },
        { key: appPasswordKey(credential.userId, credential.passwordId), schema: AppPasswordItemSchema },
      ],
      { consistent: true },
    );
    return { user, credentialHash: credential.userId === userId ? password?.hash : undefined };
  }
  const [user, token] = await getItems<[UserItem, TokenItem]>(
    [
      { key: userKey(userId), schema: UserItemSchema },
      { key: tokenKey(credential.tokenId), schema: TokenItemSchema },
    ],
    { consistent: true },
  );
  return { user, credentialHash: token?.user_id === userId ? token.hash : undefined };
}

/** Sets a user's profile status (`active`, `suspended`, `banned`); false when there is no such user. */
export async function setUserStatus(
  userId: number,
  status: ProfileStatus,
  updatedAt: string = nowIso(),
): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([
    updateAction(userKey(userId), {
      UpdateExpression: 'SET #status = :status, updated_at = :updatedAt',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':updatedAt': updatedAt },
    }),
  ]);
  return outcome.written;
}

/**
 * Deletes every application password of a user and answers how many this call deleted. The deletes of one read
 * are one transaction, each conditioned on the password still existing, so a concurrent revocation is never
 * counted twice: when it removed one first, the transaction is cancelled and the partition read again.
 */
export async function deleteAppPasswords(userId: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const passwords = await listAppPasswords(userId, { consistent: true });
    if (passwords.length === 0) return deleted;
    const batch = passwords.slice(0, MAX_TRANSACTION_ACTIONS);
    const outcome = await transactWriteIfConditionsHold(
      batch.map((password) =>
        deleteAction(appPasswordKey(userId, password.id), { ConditionExpression: 'attribute_exists(pk)' }),
      ),
    );
    if (outcome.written) deleted += batch.length;
  }
}

/** Deletes a bearer token; false when there was none with that id. */
export async function deleteToken(tokenId: string): Promise<boolean> {
  const outcome = await transactWriteIfConditionsHold([
    deleteAction(tokenKey(tokenId), { ConditionExpression: 'attribute_exists(pk)' }),
  ]);
  return outcome.written;
}

export async function insertToken(userId: number, tokenId: string, hash: string): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: storedToken(tokenId, userId, hash, new Date().toISOString()),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export function findToken(
  tokenId: string,
  options: { consistent?: boolean } = {},
): Promise<TokenItem | undefined> {
  return getItem(tokenKey(tokenId), TokenItemSchema, options);
}
