import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../../infra/local/gateway.ts';
import { resetEnvCache } from '../../shared/config/env.ts';
import { resetSecretCache } from '../../shared/config/secrets.ts';
import { db } from '../../shared/db/client.ts';
import { createTestUser, type TestUser } from '../support/api.ts';

/**
 * The authorizer fails in the contract's envelope (issue 7, item 7). A local gateway runs in this process, so the
 * authorizer and handler it loads share this process's DynamoDB client; a fault on that client's middleware stack
 * sends every request to a loopback port nothing listens on: DynamoDB unreachable, as after a network failure.
 * Without the fix the authorizer throws and the gateway answers a bare `{"message":"Internal Server Error"}`.
 */
const ROUTE = '/notifications/unread';
const FAULT = 'unreachableDynamoDb';

let gateway: Gateway;
let closedPort: number;
let user: TestUser;

beforeAll(async () => {
  gateway = await startGateway({ port: 0 });
  closedPort = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  user = await createTestUser();
});
afterAll(() => gateway.close());
afterEach(() => {
  db().middlewareStack.remove(FAULT);
});

function makeDynamoDbUnreachable(): void {
  db().middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { hostname?: string; port?: number };
      request.hostname = '127.0.0.1';
      request.port = closedPort;
      return next(args);
    },
    { step: 'finalizeRequest', name: FAULT, priority: 'low' },
  );
}

async function get(authorization: string) {
  const response = await fetch(`${gateway.url}${ROUTE}`, { headers: { authorization } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

function expectUnavailable(response: Awaited<ReturnType<typeof get>>) {
  expect(response.status, JSON.stringify(response.body)).toBe(503);
  expect(response.body).toEqual({
    code: 'service_unavailable',
    message: 'The service is temporarily unavailable. Try again.',
    data: { status: 503 },
  });
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-request-id')).toMatch(/\S+/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('retry-after')).toBe('5');
  expect(response.headers.get('www-authenticate')).toBeNull();
}

describe('authorizer with DynamoDB unreachable', () => {
  it('answers 503 service_unavailable in the envelope for a header it has never seen', async () => {
    expect((await get(user.authorization)).status).toBe(200); // the route and user are fine
    makeDynamoDbUnreachable();
    expectUnavailable(await get(user.authorization.replace('Basic ', 'basic ')));
  });

  it('answers 503 for a header it verified before (the per-request re-read fails), and recovers at once', async () => {
    expect((await get(user.authorization)).status).toBe(200);
    makeDynamoDbUnreachable();
    expectUnavailable(await get(user.authorization));
    db().middlewareStack.remove(FAULT);
    expect((await get(user.authorization)).status).toBe(200);
  });

  it('answers 503 for a bearer token too, never 401: nothing was decided', async () => {
    makeDynamoDbUnreachable();
    expectUnavailable(await get('Bearer abcdefghij.abcdefghijklmnopqrstuvwxyz'));
  });
});

describe('authorizer with DynamoDB stalled', () => {
  it('answers 503 before its own time is up instead of being cut off', async () => {
    const impatient = await startGateway({ port: 0, integrationTimeoutMs: 1_500 });
    try {
      db().middlewareStack.add(
        (next) => async (args) => {
          await new Promise((resolve) => setTimeout(resolve, 4_000));
          return next(args);
        },
        { step: 'finalizeRequest', name: FAULT, priority: 'low' },
      );
      const started = Date.now();
      const authorization = `Basic ${Buffer.from('stalled_user:AAAABBBBCCCCDDDDEEEEFFFF').toString('base64')}`;
      const response = await fetch(`${impatient.url}${ROUTE}`, { headers: { authorization } });
      // Well before the stalled read (4 s) would have answered; and the envelope below proves the authorizer decided,
      // since a cut-off invocation gets the gateway's bare 503 instead. (No tighter wall-clock bound: CI is shared.)
      expect(Date.now() - started).toBeLessThan(4_000);
      expectUnavailable({
        status: response.status,
        headers: response.headers,
        body: await response.json(),
      });
    } finally {
      await impatient.close();
    }
  });
});

describe('authorizer without its pepper secret', () => {
  it('answers 503, and the next request reads the secret again instead of remembering the failure', async () => {
    const pepper = process.env.PASSWORD_PEPPER;
    const fresh = `${user.authorization.replace('Basic ', 'BASIC ')}`;
    try {
      process.env.PASSWORD_PEPPER = '';
      resetEnvCache();
      resetSecretCache();
      expectUnavailable(await get(fresh));
    } finally {
      process.env.PASSWORD_PEPPER = pepper;
      resetEnvCache();
    }
    expect((await get(fresh)).status).toBe(200);
  });
});
