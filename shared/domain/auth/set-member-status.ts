import { userNotFound } from '../../errors/app-error.ts';
import { findUserById, findUserIdByUsername, normalizeUsername, setUserStatus } from '../users/index.ts';

export type MemberStatusChange = 'suspended' | 'active';

/**
 * Suspends or reactivates a member by login (operator CLI `user:suspend`, `user:activate`). The authorizer reads
 * the user item on every request, so the next request of a suspended member is 403 `rest_forbidden` ("Your account
 * is not active."), whatever credential they send, and of a reactivated one is served again; nothing else of the
 * account changes (passwords and tokens stay). Idempotent: `previous` says what the status was before.
 */
export async function setMemberStatus(
  login: string,
  status: MemberStatusChange,
): Promise<{ login: string; id: number; status: MemberStatusChange; previous: string }> {
  const username = normalizeUsername(login);
  const userId = await findUserIdByUsername(username, { consistent: true });
  const user = userId === undefined ? undefined : await findUserById(userId, { consistent: true });
  if (!user) throw userNotFound(`No user with the login "${login}".`);
  if (user.status !== status && !(await setUserStatus(user.id, status))) {
    throw userNotFound(`No user with the login "${login}".`);
  }
  return { login: username, id: user.id, status, previous: user.status };
}
