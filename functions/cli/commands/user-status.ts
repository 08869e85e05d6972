import { setMemberStatus } from '../../../shared/domain/auth/index.ts';
import { withOperatorErrors } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs, requiredOption } from '../parse-args.ts';

/** `user:suspend --login L`: the member's next request is 403 (account not active); prints the new status. */
export function userSuspendCommand(args: ParsedArgs) {
  assertKnownOptions(args, ['login']);
  const login = requiredOption(args, 'login');
  return withOperatorErrors(() => setMemberStatus(login, 'suspended'));
}

/** `user:activate --login L`: a suspended (or banned) member is served again; prints the new status. */
export function userActivateCommand(args: ParsedArgs) {
  assertKnownOptions(args, ['login']);
  const login = requiredOption(args, 'login');
  return withOperatorErrors(() => setMemberStatus(login, 'active'));
}
