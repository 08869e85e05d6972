import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.ts';
import { userSearchKey } from '../../shared/db/keys/users.ts';
import { batchGetRawItems } from '../../shared/db/reads.ts';
import { SEARCHED_USER_FIELDS } from '../../shared/domain/users/user-item.ts';

/** A user's three search entries as stored (name, login, e-mail), read consistently. */
export const searchEntriesOf = (userId: number) =>
  batchGetRawItems(
    (['name', 'login', 'email'] as const).map((field) => userSearchKey(userId, field)),
    true,
  );

/** Rewrites a user's search entries as a stage before entries carried the user wrote them (keys and value only). */
export async function writeOldSearchEntries(userId: number): Promise<void> {
  for (const entry of await searchEntriesOf(userId)) {
    const old = Object.fromEntries(
      Object.entries(entry).filter(([name]) => !(SEARCHED_USER_FIELDS as readonly string[]).includes(name)),
    );
    await db().send(new PutCommand({ TableName: tableName(), Item: old }));
  }
}
