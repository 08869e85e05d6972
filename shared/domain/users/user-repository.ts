import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { emailGuardKey, tokenKey, userAppPasswords, userKey, usernameGuardKey } from '../../db/keys/users.ts';
import { batchGetItems, getItem, queryItems } from '../../db/reads.ts';
import { putAction, type TransactAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import { AppError } from '../../errors/app-error.ts';
import {
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
 * Users and their credentials, one method per access pattern (ACCESS_PATTERNS.md, "Users"): by id (GetItem), by
 * username or e-mail (guard GetItem → GetItem), many by id (BatchGetItem), app passwords of a user (Query in the
 * user partition), a token by id.
 */

/**
 * The writes that create a user: the user item, the username and e-mail guards (uniqueness), the three search
 * entries (space user search by prefix) and optionally the first application password. Exposed so the import can
 * put several users in one transaction.
 */
export function userCreationActions(user: UserItem, appPasswordHash?: string): TransactAction[] {
  const actions = [
    putAction(storedUser(user), { ifAbsent: true }),
    putAction(storedUsernameGuard(user), { ifAbsent: true }),
    putAction(storedEmailGuard(user), { ifAbsent: true }),
    ...storedSearchEntries(user).map((entry) => putAction(entry)),
  ];
  if (appPasswordHash) {
    actions.push(putAction(storedAppPassword(user.id, randomUUID(), appPasswordHash, user.created_at)));
  }
  return actions;
}

/** Creates one user atomically; a taken login or e-mail is a 409 naming which. */
export async function insertUser(user: UserItem, appPasswordHash?: string): Promise<void> {
  const outcome = await transactWriteIfConditionsHold(userCreationActions(user, appPasswordHash));
  if (outcome.written) return;
  if (outcome.failed.includes(1))
    throw new AppError('existing_user_login', 409, 'Sorry, that username already exists!');
  if (outcome.failed.includes(2)) {
    throw new AppError('existing_user_email', 409, 'Sorry, that email address is already used!');
  }
  throw new Error(`User ${user.id} already exists`);
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

/** The hashes of a user's application passwords (a handful per user; one Query in the user partition). */
export async function listAppPasswordHashes(
  userId: number,
  options: { consistent?: boolean } = {},
): Promise<string[]> {
  const passwords = await queryItems(userAppPasswords(userId), AppPasswordItemSchema, options);
  return passwords.map((password) => password.hash);
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
