import { describe, expect, it } from 'vitest';
import { passwordPepper } from '../../shared/config/pepper.ts';
import { revokeAppPasswords, revokeToken } from '../../shared/domain/auth/index.ts';
import { generateAppPassword, generateToken, hashSecret } from '../../shared/domain/users/secret-hash.ts';
import { setUserStatus } from '../../shared/domain/users/user-access.ts';
import { addAppPassword, insertToken } from '../../shared/domain/users/user-repository.ts';
import { type ApiResponse, api, createTestUser } from '../support/api.ts';

/**
 * Revocation and suspension take effect on the very next request (issue 7, item 1; decisions.md, "Authentication
 * errors"): the authorizer may remember which credential a header's secret matched, never the decision. Each case
 * first authenticates with the same header(s) it later expects refused, so a remembered decision would show.
 */
const ROUTE = '/notifications/unread';

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

const get = (authorization: string) => api('GET', ROUTE, { headers: { authorization } });

function expectStatus(response: ApiResponse, status: number, code?: string) {
  expect(response.status, response.text).toBe(status);
  if (code) expect((response.body as { code: string }).code).toBe(code);
}

/** The password as printed (grouped by four) and as typed without the spaces: two headers, one credential. */
async function userWithBothHeaders() {
  const user = await createTestUser();
  const headers = [
    basic(user.username, user.password),
    basic(user.username, user.password.replace(/ /g, '')),
  ];
  expect(headers[0]).not.toBe(headers[1]);
  for (const header of headers) expectStatus(await get(header), 200);
  return { user, headers };
}

describe('suspension', () => {
  it.each(['suspended', 'banned'] as const)(
    'a %s account is 403 on the next request with either form of the password, and 200 again once active',
    async (status) => {
      const { user, headers } = await userWithBothHeaders();
      expect(await setUserStatus(user.id, status)).toBe(true);
      for (const header of headers) {
        const response = await get(header);
        expectStatus(response, 403, 'rest_forbidden');
        expect((response.body as { message: string }).message).toBe('Your account is not active.');
      }
      expect(await setUserStatus(user.id, 'active')).toBe(true);
      for (const header of headers) expectStatus(await get(header), 200);
    },
  );

  it('applies to bearer tokens too', async () => {
    const user = await createTestUser();
    const { id, secret, token } = generateToken();
    await insertToken(user.id, id, hashSecret(secret, await passwordPepper()));
    expectStatus(await get(`Bearer ${token}`), 200);
    await setUserStatus(user.id, 'suspended');
    expectStatus(await get(`Bearer ${token}`), 403, 'rest_forbidden');
  });

  it('answers false for a user that does not exist (and creates nothing)', async () => {
    expect(await setUserStatus(987_654_321, 'suspended')).toBe(false);
  });
});

describe('revoked application passwords', () => {
  it('are 401 invalid_credentials on the next request, with and without the spaces', async () => {
    const { user, headers } = await userWithBothHeaders();
    expect(await revokeAppPasswords(user.username)).toEqual({ login: user.username, revoked: 1 });
    for (const header of headers) {
      const response = await get(header);
      expectStatus(response, 401, 'invalid_credentials');
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="community"');
    }
  });

  it('revoke every password of the login; a password added afterwards works at once', async () => {
    const { user, headers } = await userWithBothHeaders();
    const second = generateAppPassword();
    await addAppPassword(user.id, hashSecret(second, await passwordPepper()));
    expectStatus(await get(basic(user.username, second)), 200);

    expect(await revokeAppPasswords(user.username.toUpperCase())).toEqual({
      login: user.username,
      revoked: 2,
    });
    for (const header of [...headers, basic(user.username, second)]) {
      expectStatus(await get(header), 401, 'invalid_credentials');
    }

    const third = generateAppPassword();
    await addAppPassword(user.id, hashSecret(third, await passwordPepper()));
    expectStatus(await get(basic(user.username, third)), 200);
    expectStatus(await get(headers[0]!), 401, 'invalid_credentials');
  });

  it('two concurrent revocations count each password once', async () => {
    const user = await createTestUser();
    const pepper = await passwordPepper();
    await Promise.all(
      Array.from({ length: 4 }, () => addAppPassword(user.id, hashSecret(generateAppPassword(), pepper))),
    );
    const outcomes = await Promise.all([
      revokeAppPasswords(user.username),
      revokeAppPasswords(user.username),
      revokeAppPasswords(user.username),
    ]);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.revoked, 0)).toBe(5);
    expectStatus(await get(user.authorization), 401, 'invalid_credentials');
  });

  it('a refusal is never remembered: a password that becomes valid works on the next request', async () => {
    const user = await createTestUser();
    const later = generateAppPassword();
    expectStatus(await get(basic(user.username, later)), 401, 'invalid_credentials');
    await addAppPassword(user.id, hashSecret(later, await passwordPepper()));
    expectStatus(await get(basic(user.username, later)), 200);
  });
});

describe('revoked tokens', () => {
  it('are 401 invalid_credentials on the next request; the user’s other credentials keep working', async () => {
    const user = await createTestUser();
    const pepper = await passwordPepper();
    const [revoked, kept] = [generateToken(), generateToken()];
    await insertToken(user.id, revoked.id, hashSecret(revoked.secret, pepper));
    await insertToken(user.id, kept.id, hashSecret(kept.secret, pepper));
    for (const token of [revoked, kept]) expectStatus(await get(`Bearer ${token.token}`), 200);

    expect(await revokeToken(revoked.id)).toEqual({ token_id: revoked.id, revoked: true });
    expectStatus(await get(`Bearer ${revoked.token}`), 401, 'invalid_credentials');
    expectStatus(await get(`Bearer ${kept.token}`), 200);
    expectStatus(await get(basic(user.username, user.password)), 200);
  });

  it('an unknown token id is a not-found error, not a silent success', async () => {
    await expect(revokeToken(generateToken().id)).rejects.toMatchObject({ code: 'token_not_found' });
    await expect(revokeToken('../not a token id')).rejects.toMatchObject({ code: 'token_not_found' });
  });
});
