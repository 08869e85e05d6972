import { createHmac, randomInt, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credentials are high-entropy random secrets (24 alphanumerics ≈ 143 bits; token secrets 256 bits), so a keyed
 * fast hash is the right tool: HMAC-SHA-256 with a secret pepper that never sits beside the data. bcrypt would
 * add ~100 ms to every cold authorizer call and buys nothing against a secret this long.
 */
export function hashSecret(secret: string, pepper: string): string {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest('base64url');
}

/** Constant-time comparison of two hashes (equal length by construction; unequal lengths never match). */
export function hashesMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const APP_PASSWORD_LENGTH = 24;

/** A new application password: 24 random letters and digits (shown once, in groups of four). */
export function generateAppPassword(): string {
  let password = '';
  for (let i = 0; i < APP_PASSWORD_LENGTH; i++) password += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return password;
}

/** `abcdEFGH…` → `abcd EFGH …`: how the password is shown; the spaces are ignored when it is sent back. */
export const formatAppPassword = (password: string): string => password.replace(/(.{4})(?=.)/g, '$1 ');

/** Clients may send the password with the display spaces; they are not part of it. */
export const normalizeAppPassword = (sent: string): string => sent.replace(/\s+/g, '');

export const isValidAppPassword = (password: string): boolean => /^[A-Za-z0-9]{24}$/.test(password);

/** A bearer token as sent: `<id>.<secret>`, both base64url (generated ids are 12 characters, secrets 43). */
export const BEARER_TOKEN_PATTERN = /^([A-Za-z0-9_-]{6,64})\.([A-Za-z0-9_-]{16,128})$/;
export const TOKEN_ID_PATTERN = /^[A-Za-z0-9_-]{6,64}$/;

/** Bearer tokens are `<id>.<secret>`: the id finds the record in one GetItem, the secret is only hashed. */
export function generateToken(): { id: string; secret: string; token: string } {
  const id = randomBytes(9).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  return { id, secret, token: `${id}.${secret}` };
}
