import { randomUUID } from 'node:crypto';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { failedConditionIndexes } from '../../db/errors.ts';
import {
  appPasswordKey,
  appPasswordPrefix,
  emailGuardKey,
  tokenKey,
  userKey,
  userSearchIndex,
  userSearchKey,
  usernameGuardKey,
} from '../../db/keys.ts';
import { AppError } from '../app-error.ts';
import type { UserItem } from './user-item.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Users and their credentials. Access patterns (ACCESS_PATTERNS.md, "Users"): by id (GetItem), by username
 * (guard GetItem → GetItem), many by id (BatchGetItem), app passwords of a user (Query in the user partition).
 */

/**
 * The writes that create a user: the user item, the username and e-mail guards (uniqueness), the three search
 * items (space user search by prefix) and optionally the first application password. Exposed so the import can
 * put several users in one transaction.
 */
export function userCreationItems(user: UserItem, appPasswordHash?: string): TransactItem[] {
  const table = tableName();
  const guard = { ConditionExpression: 'attribute_not_exists(pk)' };
  const items: TransactItem[] = [
    { Put: { TableName: table, Item: { ...userKey(user.id), entity: 'user', ...user }, ...guard } },
    {
      Put: {
        TableName: table,
        Item: { ...usernameGuardKey(user.username), entity: 'username_guard', user_id: user.id },
        ...guard,
      },
    },
    {
      Put: {
        TableName: table,
        Item: { ...emailGuardKey(user.email), entity: 'email_guard', user_id: user.id },
        ...guard,
      },
    },
    ...searchItems(user).map((Item) => ({ Put: { TableName: table, Item } })),
  ];
  if (appPasswordHash)
    items.push({ Put: { TableName: table, Item: appPasswordItem(user.id, appPasswordHash) } });
  return items;
}

function searchItems(user: UserItem): Record<string, unknown>[] {
  const fields = [
    ['name', user.display_name],
    ['login', user.username],
    ['email', user.email],
  ] as const;
  return fields.map(([field, value]) => ({
    ...userSearchKey(user.id, field),
    ...userSearchIndex(value, user.id),
    entity: 'user_search',
    user_id: user.id,
  }));
}

function appPasswordItem(userId: number, hash: string, name = 'default') {
  return {
    ...appPasswordKey(userId, randomUUID()),
    entity: 'app_password',
    user_id: userId,
    name,
    hash,
    created_at: new Date().toISOString(),
  };
}

/** Creates one user atomically; a taken login or e-mail is a 409 naming which. */
export async function insertUser(user: UserItem, appPasswordHash?: string): Promise<void> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: userCreationItems(user, appPasswordHash) }));
  } catch (error) {
    const failed = failedConditionIndexes(error);
    if (failed.includes(1))
      throw new AppError('existing_user_login', 409, 'Sorry, that username already exists!');
    if (failed.includes(2))
      throw new AppError('existing_user_email', 409, 'Sorry, that email address is already used!');
    throw error;
  }
}

export async function addAppPassword(userId: number, hash: string, name = 'default'): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: appPasswordItem(userId, hash, name) }));
}

export async function findUserById(userId: number): Promise<UserItem | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: userKey(userId) }));
  return result.Item as UserItem | undefined;
}

export async function findUserIdByUsername(username: string): Promise<number | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: usernameGuardKey(username) }));
  return result.Item ? Number(result.Item.user_id) : undefined;
}

export async function findUserIdByEmail(email: string): Promise<number | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: emailGuardKey(email) }));
  return result.Item ? Number(result.Item.user_id) : undefined;
}

export async function findUserByUsername(username: string): Promise<UserItem | undefined> {
  const userId = await findUserIdByUsername(username);
  return userId === undefined ? undefined : findUserById(userId);
}

/** Many users by id in BatchGetItem calls of at most 100 keys; missing ids are simply absent from the map. */
export async function findUsersByIds(userIds: readonly number[]): Promise<Map<number, UserItem>> {
  const unique = [...new Set(userIds)];
  const found = new Map<number, UserItem>();
  for (let start = 0; start < unique.length; start += 100) {
    let keys: Record<string, unknown>[] | undefined = unique.slice(start, start + 100).map(userKey) as never;
    // BatchGetItem may return UnprocessedKeys under load; retry them with a short backoff.
    for (let attempt = 0; keys && keys.length > 0 && attempt < 5; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const result: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys } } }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) found.set(Number(item.id), item as UserItem);
      keys = result.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return found;
}

/** The hashes of a user's application passwords (a handful per user; one Query in the user partition). */
export async function listAppPasswordHashes(userId: number): Promise<string[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': appPasswordPrefix },
      ProjectionExpression: '#hash',
      ExpressionAttributeNames: { '#hash': 'hash' },
    }),
  );
  return (result.Items ?? []).map((item) => String(item.hash));
}

export async function insertToken(userId: number, tokenId: string, hash: string): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...tokenKey(tokenId),
        entity: 'token',
        user_id: userId,
        hash,
        created_at: new Date().toISOString(),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findToken(tokenId: string): Promise<{ userId: number; hash: string } | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: tokenKey(tokenId) }));
  return result.Item ? { userId: Number(result.Item.user_id), hash: String(result.Item.hash) } : undefined;
}
