import { notFound } from '../../errors/app-error.ts';
import { deleteToken, TOKEN_ID_PATTERN } from '../users/index.ts';

/**
 * Revokes one bearer token by its id, the part before the dot (operator CLI `token:revoke`). The token is
 * deleted, and the authorizer re-reads it on every request, so its next request is 401.
 */
export async function revokeToken(tokenId: string): Promise<{ token_id: string; revoked: true }> {
  // An id no token can have is unknown too (and never reaches the table as an oversized key).
  const known = TOKEN_ID_PATTERN.test(tokenId) && (await deleteToken(tokenId));
  if (!known) throw notFound('token_not_found', `No token with the id "${tokenId.slice(0, 100)}".`);
  return { token_id: tokenId, revoked: true };
}
