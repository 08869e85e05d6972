/**
 * Username rules (decisions.md): stored lower-case `[a-z0-9_]`, 3..100 characters, unique. Reserved words can
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

export const USERNAME_PATTERN = /^[a-z0-9_]{3,100}$/;

/** A path username is matched case-insensitively; outside `[A-Za-z0-9_-]` or over 100: `invalid_username`. */
export const PATH_USERNAME_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export const normalizeUsername = (login: string): string => login.trim().toLowerCase();

export function usernameProblem(username: string): string | undefined {
  if (!USERNAME_PATTERN.test(username)) return 'must be 3 to 100 characters of a-z, 0-9 and _';
  if (RESERVED_USERNAMES.has(username)) return 'is a reserved word';
  return undefined;
}

const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,63}$/;
export const isValidEmail = (email: string): boolean => email.length <= 254 && EMAIL_PATTERN.test(email);
