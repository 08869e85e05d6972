import { revokeToken } from '../../../shared/domain/auth/index.ts';
import { withOperatorErrors } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs, requiredOption } from '../parse-args.ts';

/** `token:revoke --token-id ID`: revokes one bearer token by its id (the part of the token before the dot). */
export function tokenRevokeCommand(args: ParsedArgs): Promise<{ token_id: string; revoked: true }> {
  assertKnownOptions(args, ['token-id']);
  const tokenId = requiredOption(args, 'token-id');
  return withOperatorErrors(() => revokeToken(tokenId));
}
