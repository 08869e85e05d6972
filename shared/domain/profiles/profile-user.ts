import { type Caller, isCommunityModerator } from '../auth/index.ts';
import { type KeyedRead, mapRead } from '../../db/read-together.ts';
import { findUserIdByUsername, PATH_USERNAME_PATTERN, userIdByUsernameRead } from '../users/index.ts';
import { invalidUsername, profileNotActive, userNotFound } from './profile-errors.ts';
import { findProfileRecord, type ProfileRecord } from './profile-repository.ts';

/**
 * The member a path or query `username` names (decisions.md "Users, profiles and roles"): matched
 * case-insensitively (the username guard is lower-case); characters outside `[A-Za-z0-9_-]` or over 100:
 * 400 `invalid_username`; nobody: 404 `user_not_found`.
 */
export async function resolveUserId(username: string): Promise<number> {
  if (!PATH_USERNAME_PATTERN.test(username)) throw invalidUsername();
  const userId = await findUserIdByUsername(username);
  if (userId === undefined) throw userNotFound();
  return userId;
}

/** `resolveUserId` as a read to send with others in one BatchGetItem (the pattern is checked before any read). */
export function userIdOfUsernameRead(username: string): KeyedRead<number> {
  if (!PATH_USERNAME_PATTERN.test(username)) throw invalidUsername();
  return mapRead(userIdByUsernameRead(username), (userId) => {
    if (userId === undefined) throw userNotFound();
    return userId;
  });
}

/**
 * The member's profile record for a read by `caller`: a profile that is not `active` is 403 `rest_forbidden`
 * "This profile is not active." except for community moderators (and the owner, who could not be calling if
 * suspended, but who may always read their own).
 */
export async function loadReadableProfile(caller: Caller, username: string): Promise<ProfileRecord> {
  const record = await findProfileRecord(await resolveUserId(username));
  if (record === undefined) throw userNotFound();
  assertReadable(caller, record);
  return record;
}

export function assertReadable(caller: Caller, record: ProfileRecord): void {
  const readable =
    record.user.status === 'active' || record.user.id === caller.id || isCommunityModerator(caller);
  if (!readable) throw profileNotActive();
}
