import { createHash } from 'node:crypto';
import type { CredentialRef } from '../users/index.ts';

/**
 * What a warm process remembers between requests: only the part of a decision that cannot change, namely that this
 * exact `Authorization` header carries the secret of that stored credential of that user. Everything that can
 * change (the user's status and roles, whether the credential still exists) is re-read on every request, so a
 * suspension or a revocation takes effect on the very next one. Failures are never remembered: a wrong secret must
 * not be answered from memory once it becomes right, and an outage must not outlive itself.
 *
 * Entries are keyed by a SHA-256 of the header, so no credential is held in memory as a map key. A header that
 * differs only in the spaces of an application password is another entry for the same credential.
 */
export interface VerifiedCredential {
  readonly userId: number;
  readonly credential: CredentialRef;
  /** The keyed hash that matched: the re-read credential must still carry it. */
  readonly hash: string;
  /** Basic only: the normalized user name the header named, which the re-read user must still have. */
  readonly username?: string;
}

const TTL_MS = 300_000;
const MAX_ENTRIES = 5_000;
const verified = new Map<string, { entry: VerifiedCredential; expiresAt: number }>();

const keyOf = (header: string): string => createHash('sha256').update(header).digest('base64url');

export function recallVerified(header: string, now = Date.now()): VerifiedCredential | undefined {
  const key = keyOf(header);
  const hit = verified.get(key);
  if (!hit) return undefined;
  if (hit.expiresAt > now) return hit.entry;
  verified.delete(key);
  return undefined;
}

export function rememberVerified(header: string, entry: VerifiedCredential, now = Date.now()): void {
  const key = keyOf(header);
  verified.delete(key);
  // Oldest first (a Map keeps insertion order): drop the oldest when full.
  if (verified.size >= MAX_ENTRIES) verified.delete(verified.keys().next().value as string);
  verified.set(key, { entry, expiresAt: now + TTL_MS });
}

export function forgetVerified(header: string): void {
  verified.delete(keyOf(header));
}

/** Tests that measure a cold decision start from an empty memory. */
export function clearVerifiedCredentials(): void {
  verified.clear();
}
