/**
 * The users domain's public surface: what other domains may use (README, import rules). Use cases, read models and
 * the write actions others compose; never its repository or stored-item schemas (test/unit/layering.test.ts).
 */
export { buildUserItem, type CreatedUser, createUser, type NewUser, validateNewUser } from './create-user.ts';
export { type HostUserSummary, toHostUserSummary } from './host-user-summary.ts';
export {
  type MemberSummary,
  type MemberTimestamps,
  toMemberSummary,
  toMemberTimestamps,
} from './member-summary.ts';
export { mentionedUserIds } from './mentioned-users.ts';
export type { SearchedUser, UserItem } from './user-item.ts';
export {
  everyUserId,
  findGuardHolders,
  findUserById,
  findUserByUsername,
  findUserIdByEmail,
  findUserIdByUsername,
  findUsersByIds,
  userIdByUsernameRead,
  type UserSearchEntry,
  userSearchWindow,
  userRead,
  usersByIdsRead,
} from './user-lookups.ts';
export {
  type CredentialRef,
  deleteAppPasswords,
  deleteToken,
  findToken,
  findUserWithCredential,
  listAppPasswords,
  setUserStatus,
} from './user-access.ts';
export { type UserSearchEntriesReport, upgradeUserSearchEntries } from './upgrade-user-search-entries.ts';
export {
  userCreationActions,
  userGuardActions,
  userItemsBehindGuards,
  userSearchEntryUpdates,
} from './user-write-actions.ts';
export {
  BEARER_TOKEN_PATTERN,
  formatAppPassword,
  generateAppPassword,
  generateToken,
  hashSecret,
  hashesMatch,
  normalizeAppPassword,
  TOKEN_ID_PATTERN,
} from './secret-hash.ts';
export { isValidEmail, normalizeUsername, PATH_USERNAME_PATTERN, usernameProblem } from './username.ts';
