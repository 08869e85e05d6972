import { passwordPepper } from '../../../shared/config/pepper.ts';
import { generateToken, hashSecret } from '../../../shared/domain/users/secret-hash.ts';
import { findUserIdByUsername } from '../../../shared/domain/users/user-lookups.ts';
import { insertToken } from '../../../shared/domain/users/user-repository.ts';
import { normalizeUsername } from '../../../shared/domain/users/username.ts';
import { CliError } from '../cli-error.ts';
import { assertKnownOptions, type ParsedArgs, requiredOption } from '../parse-args.ts';

/** `token:create --login L`: a bearer token `<id>.<secret>`; only the secret's keyed hash is stored. */
export async function tokenCreateCommand(args: ParsedArgs): Promise<{ token: string }> {
  assertKnownOptions(args, ['login']);
  const login = requiredOption(args, 'login');
  const userId = await findUserIdByUsername(normalizeUsername(login));
  if (userId === undefined) throw new CliError(`No user with the login "${login}".`);
  const { id, secret, token } = generateToken();
  await insertToken(userId, id, hashSecret(secret, await passwordPepper()));
  return { token };
}
