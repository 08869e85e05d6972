import { beforeAll, describe, expect, it } from 'vitest';
import { passwordPepper } from '../../shared/config/pepper.ts';
import { formatAppPassword, generateToken, hashSecret } from '../../shared/domain/users/secret-hash.ts';
import { insertToken } from '../../shared/domain/users/user-repository.ts';
import { type ApiResponse, api, createTestUser, type TestUser, uniqueLogin } from '../support/api.ts';

/**
 * Authentication through the local gateway (decisions.md, "Authentication errors" and "Web clients"). The
 * authenticated route used is `GET /notifications/unread` (access `owner`: any active caller, own data only).
 * Revocation, suspension and outages have files of their own (auth-revocation, auth-timing, and
 * test/integration/auth-unavailable).
 */
const AUTHENTICATED_ROUTE = '/notifications/unread';
const INVALID_MESSAGE_KEYS = ['code', 'message', 'data'];

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

function expectEnvelope(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  const body = response.body as { code: string; message: string; data: { status: number } };
  expect(Object.keys(body).sort()).toEqual([...INVALID_MESSAGE_KEYS].sort());
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.data).toEqual({ status });
}

function expectCommonHeaders(response: ApiResponse, authenticated: boolean) {
  expect(response.headers.get('x-request-id')).toMatch(/\S+/);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  if (authenticated) expect(response.headers.get('cache-control')).toBe('private, no-cache');
  else expect(response.headers.get('cache-control')).toBeNull();
}

describe('no credentials', () => {
  it('401 rest_not_logged_in with the standard envelope', async () => {
    const response = await api('GET', AUTHENTICATED_ROUTE);
    expectEnvelope(response, 401, 'rest_not_logged_in');
    expectCommonHeaders(response, false);
    expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it('an empty Authorization header counts as none', async () => {
    const response = await api('GET', AUTHENTICATED_ROUTE, { headers: { authorization: '' } });
    expectEnvelope(response, 401, 'rest_not_logged_in');
  });
});

describe('invalid credentials: one answer for every failure', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser();
  });

  const cases: Array<[string, () => string]> = [
    ['wrong password', () => basic(user.username, 'AAAABBBBCCCCDDDDEEEEFFFF')],
    ['wrong password with display spaces', () => basic(user.username, 'AAAA BBBB CCCC DDDD EEEE FFFF')],
    ['unknown user', () => basic(uniqueLogin('ghost'), user.password)],
    ['empty password', () => basic(user.username, '')],
    ['no colon', () => `Basic ${Buffer.from(user.username).toString('base64')}`],
    ['scheme only', () => 'Basic'],
    ['bad base64', () => 'Basic !!!not-base64!!!'],
    // Issue 21 item 10: the decoder stops at the padding, so these decoded to the right credentials.
    [
      'item 10: junk after the Base64 padding',
      () => `${basic(user.username, user.password).replace(/=+$/, '')}==QUFB`,
    ],
    [
      'item 10: a second Base64 block after the padding',
      () => `${basic(user.username, user.password).replace(/=+$/, '')}==dXNlcg==`,
    ],
    [
      'item 10: padding inside the Base64',
      () => `${basic(user.username, user.password).replace(/=+$/, '')}=A=`,
    ],
    ['unknown scheme', () => `Digest ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`],
    ['malformed bearer token', () => 'Bearer not-a-token'],
    ['unknown bearer token', () => `Bearer ${generateToken().token}`],
    ['garbage', () => 'x'],
  ];

  const messages = new Set<string>();

  it.each(cases)('%s → 401 invalid_credentials with WWW-Authenticate', async (_name, header) => {
    const response = await api('GET', AUTHENTICATED_ROUTE, { headers: { authorization: header() } });
    expectEnvelope(response, 401, 'invalid_credentials');
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="community"');
    expectCommonHeaders(response, false);
    messages.add((response.body as { message: string }).message);
  });

  it('uses the same message for all of them (no user enumeration)', () => {
    expect(messages.size).toBe(1);
  });
});

describe('valid credentials', () => {
  it('the application password as printed (with spaces) authenticates', async () => {
    const user = await createTestUser();
    expect(user.password).toMatch(/^(\w{4} ){5}\w{4}$/);
    const response = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { authorization: basic(user.username, user.password) },
    });
    expect(response.status, response.text).toBe(200);
    expectCommonHeaders(response, true);
  });

  it('the application password without spaces authenticates', async () => {
    const user = await createTestUser();
    const response = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { authorization: basic(user.username, user.password.replace(/ /g, '')) },
    });
    expect(response.status, response.text).toBe(200);
    expectCommonHeaders(response, true);
  });

  it('the user name is matched case-insensitively', async () => {
    const user = await createTestUser();
    const response = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { authorization: basic(user.username.toUpperCase(), user.password) },
    });
    expect(response.status, response.text).toBe(200);
  });

  it('the scheme name is case-insensitive', async () => {
    const user = await createTestUser();
    const encoded = Buffer.from(`${user.username}:${user.password}`).toString('base64');
    const response = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { authorization: `basic ${encoded}` },
    });
    expect(response.status, response.text).toBe(200);
  });

  it("another user's password does not authenticate", async () => {
    const [alice, bob] = await Promise.all([createTestUser(), createTestUser()]);
    const response = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { authorization: basic(alice.username, bob.password) },
    });
    expectEnvelope(response, 401, 'invalid_credentials');
  });

  it('a Bearer token authenticates; its secret alone or with another id does not', async () => {
    const user = await createTestUser();
    const { id, secret, token } = generateToken();
    await insertToken(user.id, id, hashSecret(secret, await passwordPepper()));

    const ok = await api('GET', AUTHENTICATED_ROUTE, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status, ok.text).toBe(200);
    expectCommonHeaders(ok, true);

    const wrongSecret = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { authorization: `Bearer ${id}.${generateToken().secret}` },
    });
    expectEnvelope(wrongSecret, 401, 'invalid_credentials');
    expect(wrongSecret.headers.get('www-authenticate')).toBe('Basic realm="community"');

    const asBasic = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { authorization: basic(user.username, token) },
    });
    expectEnvelope(asBasic, 401, 'invalid_credentials');
  });

  it('formatAppPassword is how the harness prints passwords', () => {
    expect(formatAppPassword('abcdefghijklmnopqrstuvwx')).toBe('abcd efgh ijkl mnop qrst uvwx');
  });
});

describe('inactive accounts', () => {
  it.each(['suspended', 'banned'] as const)(
    '%s → 403 rest_forbidden "Your account is not active."',
    async (status) => {
      const user = await createTestUser({ status });
      const response = await api('GET', AUTHENTICATED_ROUTE, { as: user });
      expectEnvelope(response, 403, 'rest_forbidden');
      expect((response.body as { message: string }).message).toBe('Your account is not active.');
      expectCommonHeaders(response, false);
    },
  );

  it('a suspended user with a wrong password is still 401 (credentials first)', async () => {
    const user = await createTestUser({ status: 'suspended' });
    const response = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { authorization: basic(user.username, 'AAAABBBBCCCCDDDDEEEEFFFF') },
    });
    expectEnvelope(response, 401, 'invalid_credentials');
  });
});

describe('headers and CORS', () => {
  it('every answer has its own request id', async () => {
    const [first, second] = await Promise.all([
      api('GET', AUTHENTICATED_ROUTE),
      api('GET', AUTHENTICATED_ROUTE),
    ]);
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });

  it('answers a CORS preflight with 204, the allowed origin and the exposed request id', async () => {
    const response = await api('OPTIONS', AUTHENTICATED_ROUTE, {
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/app\.example\.com)$/);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/x-request-id/i);
    expect(response.headers.get('access-control-allow-methods')).toMatch(/GET/);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/idempotency-key/i);
    expect(response.headers.get('access-control-allow-headers')).toMatch(/if-none-match/i);
  });

  it('sends CORS headers on ordinary answers to a cross-origin caller', async () => {
    const user = await createTestUser();
    const response = await api('GET', AUTHENTICATED_ROUTE, {
      as: user,
      headers: { origin: 'https://app.example.com' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/app\.example\.com)$/);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/x-request-id/i);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/etag/i);
    expectCommonHeaders(response, true);
  });

  it('sends CORS headers on error answers too (browsers must be able to read them)', async () => {
    const response = await api('GET', AUTHENTICATED_ROUTE, {
      headers: { origin: 'https://app.example.com' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).not.toBeNull();
  });
});
