import type { Caller } from '../auth/index.ts';
import { canViewProfileSpaces } from '../auth/index.ts';
import { userNotFound } from './profile-errors.ts';
import { type ProfileResponse, toProfile } from './profile-mapper.ts';
import { findProfileRecord } from './profile-repository.ts';
import { loadReadableProfile } from './profile-user.ts';
import { userSpaceVisibility } from './space-visibility.ts';

/** `GET /profile/{username}`: guard GetItem, user + stats BatchGetItem, privacy setting GetItem. */
export async function getProfile(caller: Caller, username: string): Promise<{ profile: ProfileResponse }> {
  const [record, visibility] = await Promise.all([
    loadReadableProfile(caller, username),
    userSpaceVisibility(),
  ]);
  return { profile: toProfile(record, caller, canViewProfileSpaces(caller, record.user.id, visibility)) };
}

/** `GET /profile/me`: the same object for the caller, owner fields included. */
export async function getOwnProfile(caller: Caller): Promise<{ profile: ProfileResponse }> {
  const [record, visibility] = await Promise.all([findProfileRecord(caller.id), userSpaceVisibility()]);
  if (record === undefined) throw userNotFound();
  return { profile: toProfile(record, caller, canViewProfileSpaces(caller, caller.id, visibility)) };
}
