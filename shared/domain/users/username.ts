import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../../vocabulary/profiles.ts';

/**
 * Username rules (decisions.md): stored lower-case `[a-z0-9_]` (USERNAME_PATTERN), unique. Reserved words can
 * never be usernames, so `/profile/me` is unambiguous and `@everyone` can never name a person.
 */
export const RESERVED_USERNAMES = new Set([
  'me',
  'self',
  'null',
  'undefined',
  'anonymous',
  'everyone',
  'here',
]);

/** A path username outside PATH_USERNAME_PATTERN is `invalid_username`. */
export { PATH_USERNAME_PATTERN, USERNAME_PATTERN } from '../../vocabulary/profiles.ts';

export const normalizeUsername = (login: string): string => login.trim().toLowerCase();

export function usernameProblem(username: string): string | undefined {
  if (!USERNAME_PATTERN.test(username))
    return `must be ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} characters of a-z, 0-9 and _`;
  if (RESERVED_USERNAMES.has(username)) return 'is a reserved word';
  return undefined;
}

const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,63}$/;
export const isValidEmail = (email: string): boolean => email.length <= 254 && EMAIL_PATTERN.test(email);
