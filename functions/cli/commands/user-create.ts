import {
  COMMUNITY_ROLES,
  type CommunityRole,
  HOST_ROLES,
  type HostRole,
} from '../../../shared/vocabulary/roles.ts';
import { type CreatedUser, createUser } from '../../../shared/domain/users/create-user.ts';
import { CliError, withOperatorErrors } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs, requiredOption } from '../parse-args.ts';

/** `user:create --login L --email E [--name N] [--role R] [--community-role C] [--password P]`. */
export async function userCreateCommand(args: ParsedArgs): Promise<CreatedUser> {
  assertKnownOptions(args, ['login', 'email', 'name', 'role', 'community-role', 'password']);
  const role = args.options.get('role');
  if (role !== undefined && !HOST_ROLES.includes(role as HostRole)) {
    throw new CliError(`--role must be one of ${HOST_ROLES.join(', ')}.`);
  }
  const communityRole = args.options.get('community-role');
  if (communityRole !== undefined && !COMMUNITY_ROLES.includes(communityRole as CommunityRole)) {
    throw new CliError(`--community-role must be one of ${COMMUNITY_ROLES.join(', ')}.`);
  }
  // The domain's messages already name the problem (taken login, taken e-mail, invalid field).
  return withOperatorErrors(() =>
    createUser({
      login: requiredOption(args, 'login'),
      email: requiredOption(args, 'email'),
      displayName: args.options.get('name'),
      hostRole: role as HostRole | undefined,
      communityRole: communityRole as CommunityRole | undefined,
      appPassword: args.options.get('password'),
    }),
  );
}
