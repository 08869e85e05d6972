import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { passwordPepper } from '../../shared/config/pepper.ts';
import { generateAppPassword, hashSecret } from '../../shared/domain/users/secret-hash.ts';
import { addAppPassword } from '../../shared/domain/users/user-repository.ts';
import { api } from '../support/api.ts';
import { cli, cliJson } from '../support/cli.ts';

/**
 * `password:revoke` and `token:revoke` (README, operator section): operators revoke credentials, and the local
 * gateway's authorizer refuses them on the next request even right after it accepted them.
 */
const unique = () => randomBytes(4).toString('hex');
const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const statusWith = async (authorization: string) =>
  (await api('GET', '/notifications/unread', { headers: { authorization } })).status;

async function createUser(): Promise<{ login: string; id: number; password: string }> {
  const login = `rv_${unique()}`;
  const created = cliJson(await cli('user:create', '--login', login, '--email', `${login}@example.com`)) as {
    id: number;
    app_password: string;
  };
  return { login, id: created.id, password: created.app_password };
}

describe('password:revoke', () => {
  it('revokes every application password of the login and prints how many', async () => {
    const user = await createUser();
    const second = generateAppPassword();
    await addAppPassword(user.id, hashSecret(second, await passwordPepper()));
    const headers = [
      basic(user.login, user.password),
      basic(user.login, user.password.replace(/ /g, '')),
      basic(user.login, second),
    ];
    for (const header of headers) expect(await statusWith(header)).toBe(200);

    expect(cliJson(await cli('password:revoke', '--login', user.login.toUpperCase()))).toEqual({
      login: user.login,
      revoked: 2,
    });
    for (const header of headers) expect(await statusWith(header)).toBe(401);

    // Nothing left to revoke: still a success, with the count.
    expect(cliJson(await cli('password:revoke', '--login', user.login))).toEqual({
      login: user.login,
      revoked: 0,
    });
  });

  it('refuses an unknown login and a missing option with exit 1 and a message', async () => {
    const unknown = await cli('password:revoke', '--login', `nobody_${unique()}`);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/No user with the login/);
    const missing = await cli('password:revoke');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/--login is required/);
  });
});

describe('token:revoke', () => {
  it('revokes one token by its id; the next request with it is refused', async () => {
    const user = await createUser();
    const { token } = cliJson(await cli('token:create', '--login', user.login)) as { token: string };
    const { token: other } = cliJson(await cli('token:create', '--login', user.login)) as { token: string };
    expect(await statusWith(`Bearer ${token}`)).toBe(200);
    const tokenId = token.split('.')[0]!;

    expect(cliJson(await cli('token:revoke', '--token-id', tokenId))).toEqual({
      token_id: tokenId,
      revoked: true,
    });
    expect(await statusWith(`Bearer ${token}`)).toBe(401);
    expect(await statusWith(`Bearer ${other}`)).toBe(200);
  });

  it('refuses an unknown or already revoked token id with exit 1 and a message', async () => {
    const user = await createUser();
    const { token } = cliJson(await cli('token:create', '--login', user.login)) as { token: string };
    const tokenId = token.split('.')[0]!;
    cliJson(await cli('token:revoke', '--token-id', tokenId));
    for (const id of [tokenId, 'unknownTokenId', 'not a token id!']) {
      const result = await cli('token:revoke', '--token-id', id);
      expect(result, id).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toMatch(/No token with the id/);
    }
  });
});
