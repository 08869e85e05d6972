/** The users domain's public surface: what other domains may use (README, import rules). */
export { buildUserItem, type CreatedUser, createUser, type NewUser, validateNewUser } from './create-user.ts';
export { type HostUserSummary, toHostUserSummary } from './host-user-summary.ts';
export {
  type MemberSummary,
  type MemberTimestamps,
  toMemberSummary,
  toMemberTimestamps,
} from './member-summary.ts';
export { mentionedUserIds } from './mentioned-users.ts';
export { storedSearchEntries, type UserItem, UserItemSchema } from './user-item.ts';
export {
  type CredentialRef,
  deleteAppPasswords,
  deleteToken,
  findGuardHolders,
  findUserById,
  findUserByUsername,
  findUserIdByEmail,
  findUserIdByUsername,
  findToken,
  findUsersByIds,
  findUserWithCredential,
  listAppPasswords,
  setUserStatus,
  userCreationActions,
  userGuardActions,
  userItemsBehindGuards,
  userRead,
  usersByIdsRead,
} from './user-repository.ts';
export { userIdsByNamePrefix } from './user-search-repository.ts';
export { isValidEmail, normalizeUsername, PATH_USERNAME_PATTERN, usernameProblem } from './username.ts';
