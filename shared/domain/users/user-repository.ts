import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { IdTaken } from '../../db/ids.ts';
import { transactWriteIfConditionsHold } from '../../db/transact.ts';
import { AppError } from '../../errors/app-error.ts';
import { storedAppPassword, storedToken, type UserItem } from './user-item.ts';
import { userCreationActions } from './user-write-actions.ts';

/**
 * The users domain's own writes of whole items (user creation, a new application password or token). Private to the
 * domain: other domains read through user-lookups.ts and user-access.ts and compose user-write-actions.ts.
 */

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

export async function insertToken(userId: number, tokenId: string, hash: string): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: storedToken(tokenId, userId, hash, new Date().toISOString()),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}
