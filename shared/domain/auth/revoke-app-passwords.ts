import { userNotFound } from '../../errors/app-error.ts';
import { deleteAppPasswords, findUserIdByUsername, normalizeUsername } from '../users/index.ts';

/**
 * Revokes every application password of a login (operator CLI `password:revoke`). The passwords are deleted, and
 * the authorizer re-reads the credential on every request, so the next request with any of them is 401.
 */
export async function revokeAppPasswords(login: string): Promise<{ login: string; revoked: number }> {
  const username = normalizeUsername(login);
  const userId = await findUserIdByUsername(username, { consistent: true });
  if (userId === undefined) throw userNotFound(`No user with the login "${login}".`);
  return { login: username, revoked: await deleteAppPasswords(userId) };
}
