import { passwordPepper } from '../../config/pepper.ts';
import {
  findToken,
  findUserById,
  findUserIdByUsername,
  listAppPasswordHashes,
  normalizeUsername,
  type UserItem,
} from '../users/index.ts';
import type { Caller } from './caller.ts';
import { hashSecret, hashesMatch, normalizeAppPassword } from './secret-hash.ts';

/**
 * What the authorizer concludes about a request. It never rejects by itself: the handler renders the
 * contract's envelope for each state (401 `rest_not_logged_in`, 401 `invalid_credentials`, 403 inactive).
 */
export type Authentication =
  | { readonly state: 'anonymous' }
  | { readonly state: 'invalid' }
  | { readonly state: 'inactive'; readonly caller: Caller }
  | { readonly state: 'authenticated'; readonly caller: Caller };

const INVALID: Authentication = { state: 'invalid' };

/** Resolves an `Authorization` header: Basic with an application password, or Bearer `<id>.<secret>`. */
export async function authenticate(header: string | undefined): Promise<Authentication> {
  if (header === undefined || header.trim() === '') return { state: 'anonymous' };
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const credentials = rest.join(' ');
  switch (scheme?.toLowerCase()) {
    case 'basic':
      return authenticateBasic(credentials);
    case 'bearer':
      return authenticateBearer(credentials);
    default:
      return INVALID;
  }
}

async function authenticateBasic(encoded: string): Promise<Authentication> {
  const decoded = /^[A-Za-z0-9+/=]+$/.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const separator = decoded.indexOf(':');
  if (separator <= 0) return INVALID;
  const username = normalizeUsername(decoded.slice(0, separator));
  const password = normalizeAppPassword(decoded.slice(separator + 1));
  if (!/^[a-z0-9_]{3,100}$/.test(username) || password.length === 0 || password.length > 200) return INVALID;

  const [pepper, userId] = await Promise.all([passwordPepper(), findUserIdByUsername(username)]);
  const sentHash = hashSecret(password, pepper);
  if (userId === undefined) return INVALID;
  const [user, hashes] = await Promise.all([findUserById(userId), listAppPasswordHashes(userId)]);
  // Compare against every stored hash without stopping early, so timing does not tell which one matched.
  let matched = false;
  for (const stored of hashes) matched = hashesMatch(stored, sentHash) || matched;
  return matched && user ? resolved(user) : INVALID;
}

async function authenticateBearer(token: string): Promise<Authentication> {
  const match = /^([A-Za-z0-9_-]{6,64})\.([A-Za-z0-9_-]{16,128})$/.exec(token);
  if (!match) return INVALID;
  const [, tokenId, secret] = match as unknown as [string, string, string];
  const [pepper, record] = await Promise.all([passwordPepper(), findToken(tokenId)]);
  if (!record || !hashesMatch(record.hash, hashSecret(secret, pepper))) return INVALID;
  const user = await findUserById(record.user_id);
  return user ? resolved(user) : INVALID;
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
