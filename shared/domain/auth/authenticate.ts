import { USERNAME_PATTERN } from '../../vocabulary/profiles.ts';
import { passwordPepper } from '../../config/pepper.ts';
import {
  BEARER_TOKEN_PATTERN,
  type CredentialRef,
  findToken,
  findUserById,
  findUserIdByUsername,
  findUserWithCredential,
  hashSecret,
  hashesMatch,
  listAppPasswords,
  normalizeAppPassword,
  normalizeUsername,
  type UserItem,
} from '../users/index.ts';
import type { Caller } from './caller.ts';

import { forgetVerified, recallVerified, rememberVerified } from './verified-credentials.ts';

/**
 * What the authorizer concludes about a request. It never rejects by itself: the handler renders the
 * contract's envelope for each state (401 `rest_not_logged_in`, 401 `invalid_credentials`, 403 inactive, and
 * 503 `service_unavailable` when the stores could not be read, so nothing could be decided).
 */
export type Authentication =
  | { readonly state: 'anonymous' }
  | { readonly state: 'invalid' }
  | { readonly state: 'unavailable' }
  | { readonly state: 'inactive'; readonly caller: Caller }
  | { readonly state: 'authenticated'; readonly caller: Caller };

const INVALID: Authentication = { state: 'invalid' };

/**
 * User ids are at least 1 (counter blocks start at 1, drawn ids at 2^52), so no user, user item or application
 * password has id 0: an unknown user name is checked against these keys, which cannot exist, to do the same work
 * as a known one.
 */
const NO_USER_ID = 0;
/** Compared against when there is no stored hash, so the comparison costs the same (same length as a real one). */
const NO_HASH = hashSecret('no credential has this hash', 'no pepper');

/**
 * Resolves an `Authorization` header: Basic with an application password, or Bearer `<id>.<secret>`. Throws when
 * a store cannot be read (the authorizer reports that as `unavailable`).
 *
 * A header seen before with the right secret skips the lookup and the hash check (verified-credentials.ts) but
 * never the decision: the user and the credential that matched are re-read, strongly consistent, in one round
 * trip, so a suspension, a role change or a revocation applies to the very next request.
 */
export async function authenticate(header: string | undefined): Promise<Authentication> {
  if (header === undefined || header.trim() === '') return { state: 'anonymous' };
  const remembered = recallVerified(header);
  if (remembered) {
    const { user, credentialHash } = await findUserWithCredential(remembered.userId, remembered.credential);
    const stillValid =
      user !== undefined &&
      credentialHash !== undefined &&
      hashesMatch(credentialHash, remembered.hash) &&
      (remembered.username === undefined || remembered.username === user.username);
    if (stillValid) return resolved(user);
    // Revoked, deleted or renamed: forget it and decide from scratch (which finds nothing unless the secret now
    // matches another credential).
    forgetVerified(header);
  }
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const credentials = rest.join(' ');
  switch (scheme?.toLowerCase()) {
    case 'basic':
      return authenticateBasic(header, credentials);
    case 'bearer':
      return authenticateBearer(header, credentials);
    default:
      return INVALID;
  }
}

async function authenticateBasic(header: string, encoded: string): Promise<Authentication> {
  const decoded = decodeBase64Strictly(encoded);
  const separator = decoded.indexOf(':');
  if (separator <= 0) return INVALID;
  const username = normalizeUsername(decoded.slice(0, separator));
  const password = normalizeAppPassword(decoded.slice(separator + 1));
  if (!USERNAME_PATTERN.test(username) || password.length === 0 || password.length > 200) return INVALID;

  const [pepper, foundId] = await Promise.all([
    passwordPepper(),
    findUserIdByUsername(username, { consistent: true }),
  ]);
  const sentHash = hashSecret(password, pepper);
  // An unknown user name does the same reads (against keys that cannot exist) and the same comparison as a wrong
  // password for an existing user, so the time of the answer does not tell whether the user exists.
  const userId = foundId ?? NO_USER_ID;
  const [user, passwords] = await Promise.all([
    findUserById(userId, { consistent: true }),
    listAppPasswords(userId, { consistent: true }),
  ]);
  // Compare against every stored hash without stopping early, so timing does not tell which one matched.
  let matched: string | undefined;
  for (const stored of passwords.length > 0 ? passwords : [{ id: '', hash: NO_HASH }]) {
    if (hashesMatch(stored.hash, sentHash) && stored.id !== '') matched = stored.id;
  }
  if (matched === undefined || !user) return INVALID;
  const credential: CredentialRef = { kind: 'app_password', userId: user.id, passwordId: matched };
  rememberVerified(header, { userId: user.id, credential, hash: sentHash, username: user.username });
  return resolved(user);
}

/**
 * The Base64 of RFC 7617, strictly: the alphabet, padding only at the end, and nothing the decoder would skip.
 * Node's decoder stops at the first `=`, so `<credentials>==junk` decoded to the credentials (issue 21, item 10);
 * re-encoding what was decoded must give back what was sent (padding aside). '' when it is not such a string.
 */
function decodeBase64Strictly(encoded: string): string {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return '';
  const bytes = Buffer.from(encoded, 'base64');
  const unpadded = (text: string) => text.replace(/=+$/, '');
  return unpadded(bytes.toString('base64')) === unpadded(encoded) ? bytes.toString('utf8') : '';
}

async function authenticateBearer(header: string, token: string): Promise<Authentication> {
  const match = BEARER_TOKEN_PATTERN.exec(token);
  if (!match) return INVALID;
  const [, tokenId, secret] = match as unknown as [string, string, string];
  const [pepper, record] = await Promise.all([passwordPepper(), findToken(tokenId, { consistent: true })]);
  const sentHash = hashSecret(secret, pepper);
  if (!record || !hashesMatch(record.hash, sentHash)) return INVALID;
  const user = await findUserById(record.user_id, { consistent: true });
  if (!user) return INVALID;
  rememberVerified(header, { userId: user.id, credential: { kind: 'token', tokenId }, hash: sentHash });
  return resolved(user);
}

function resolved(user: UserItem): Authentication {
  const caller: Caller = {
    id: user.id,
    username: user.username,
    hostRole: user.host_role,
    communityRoles: user.community_roles,
    status: user.status,
  };
  return user.status === 'active' ? { state: 'authenticated', caller } : { state: 'inactive', caller };
}
