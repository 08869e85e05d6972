import { createHash, randomBytes } from 'node:crypto';

/**
 * Acceptance tokens: 32 random bytes (base64url, 43 characters). Only the SHA-256 of a token is stored; the token
 * itself exists only in the e-mail. A plain hash is enough: the token has 256 bits of entropy, so the stored hash
 * cannot be reversed by guessing.
 */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newInvitationToken = (): string => randomBytes(32).toString('base64url');

export const hashInvitationToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');
