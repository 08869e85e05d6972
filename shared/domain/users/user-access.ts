import { appPasswordKey, tokenKey, userAppPasswords, userKey } from '../../db/keys/users.ts';
import { getItem, getItems, queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  MAX_TRANSACTION_ACTIONS,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import type { ProfileStatus } from '../../vocabulary/roles.ts';
import { nowIso } from '../dates.ts';
import {
  type AppPasswordItem,
  AppPasswordItemSchema,
  type TokenItem,
  TokenItemSchema,
  type UserItem,
  UserItemSchema,
} from './user-item.ts';
import { userSearchEntryUpdates } from './user-write-actions.ts';

/**
 * A user's access, as the auth domain reads and changes it (ACCESS_PATTERNS.md, "Authorizer"): credentials (application
 * passwords, bearer tokens), the user with one credential in one round trip, status changes and revocations.
 */

/** Which stored credential a secret matched: one application password of a user, or one bearer token. */
export type CredentialRef =
  | { readonly kind: 'app_password'; readonly userId: number; readonly passwordId: string }
  | { readonly kind: 'token'; readonly tokenId: string };

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
    // The search entries carry the status (the space user search excludes an account that is not active).
    ...userSearchEntryUpdates(userId, { status }),
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

export function findToken(
  tokenId: string,
  options: { consistent?: boolean } = {},
): Promise<TokenItem | undefined> {
  return getItem(tokenKey(tokenId), TokenItemSchema, options);
}
