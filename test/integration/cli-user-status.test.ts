import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findUserById } from '../../shared/domain/users/index.ts';
import { api } from '../support/api.ts';
import { cli, cliJson } from '../support/cli.ts';

/**
 * Issue 21 item 11: `user:suspend --login L` and `user:activate --login L` (README, operator section). The local
 * gateway's authorizer refuses a suspended member on the very next request (403, account not active) and serves
 * them again once reactivated; their credentials are untouched.
 */
const unique = () => randomBytes(4).toString('hex');
const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

describe('issue 21 item 11: user:suspend and user:activate', () => {
  it('suspends a member (403 on the next request) and reactivates them (200 again), printing the status', async () => {
    const login = `st_${unique()}`;
    const created = cliJson(
      await cli('user:create', '--login', login, '--email', `${login}@example.com`),
    ) as {
      id: number;
      app_password: string;
    };
    const authorization = basic(login, created.app_password);
    const call = () => api<{ code?: string }>('GET', '/notifications/unread', { headers: { authorization } });
    expect((await call()).status).toBe(200);

    expect(cliJson(await cli('user:suspend', '--login', login.toUpperCase()))).toEqual({
      login,
      id: created.id,
      status: 'suspended',
      previous: 'active',
    });
    const refused = await call();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('rest_forbidden');
    expect((await findUserById(created.id, { consistent: true }))?.status).toBe('suspended');
    // Again: nothing to change, still a success.
    expect(cliJson(await cli('user:suspend', '--login', login))).toMatchObject({ previous: 'suspended' });

    expect(cliJson(await cli('user:activate', '--login', login))).toEqual({
      login,
      id: created.id,
      status: 'active',
      previous: 'suspended',
    });
    expect((await call()).status).toBe(200);
  });

  it('refuses an unknown login, a missing or unknown option with exit 1 and a message; --help shows an example', async () => {
    for (const command of ['user:suspend', 'user:activate']) {
      const unknown = await cli(command, '--login', `nobody_${unique()}`);
      expect(unknown).toMatchObject({ code: 1, stdout: '' });
      expect(unknown.stderr).toMatch(/No user with the login/);
      const missing = await cli(command);
      expect(missing).toMatchObject({ code: 1, stdout: '' });
      expect(missing.stderr).toMatch(/--login is required/);
      const extra = await cli(command, '--login', 'x', '--force', 'yes');
      expect(extra).toMatchObject({ code: 1, stdout: '' });
      const help = await cli(command, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`${command} --login`);
    }
    const list = await cli('--help');
    expect(list.stdout).toContain('user:suspend');
    expect(list.stdout).toContain('user:activate');
  });
});
