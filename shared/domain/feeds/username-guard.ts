import { userNotFound } from '../../errors/app-error.ts';
import { findUserIdByUsername } from '../users/index.ts';

/** The id of `?username=`'s member (404 `user_not_found` when there is none). */
export async function resolveUsername(username: string): Promise<number> {
  return foundUser(await findUserIdByUsername(username));
}

/** The id a username's guard read found, or 404 `user_not_found`. */
export function foundUser(userId: number | undefined): number {
  if (userId === undefined) throw userNotFound();
  return userId;
}
