import { revokeAppPasswords } from '../../../shared/domain/auth/index.ts';
import { withOperatorErrors } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs, requiredOption } from '../parse-args.ts';

/** `password:revoke --login L`: revokes every application password of the login; prints how many. */
export function passwordRevokeCommand(args: ParsedArgs): Promise<{ login: string; revoked: number }> {
  assertKnownOptions(args, ['login']);
  const login = requiredOption(args, 'login');
  return withOperatorErrors(() => revokeAppPasswords(login));
}
