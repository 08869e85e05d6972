import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/catalogue/index.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { bodyFor, contractOf, pathOf, SAMPLE_QUERIES } from '../support/contract-samples.ts';

/**
 * Every write of the catalogue (POST, PUT, DELETE) honours `Idempotency-Key` through the one handler factory, so a
 * new write route is covered the moment it is catalogued: the request that `contract-samples.ts` derives from the
 * contract (path ids `1`, the smallest valid body), sent twice by a fresh member with one key, answers the same
 * status and body twice, the second marked `Idempotent-Replayed: true`; the same key with another body (byte for
 * byte) is 422.
 * What the first answer is (201, 403, 404 …) depends on the route; that it is answered once is what counts here.
 * A first answer that is a validation 400 ran nothing and is not kept (the body is the contract's business).
 * The effect on the store of a replay is tested per domain in idempotency.test.ts (posts, likes, quiz attempts).
 */
const writes = ROUTES.filter((route) => route.method !== 'GET');

let member: TestUser;
beforeAll(async () => {
  member = await createTestUser();
});

describe('Idempotency-Key on every write of the catalogue', () => {
  it('answers a repeat identically and marked, and a changed body 422', async () => {
    const replayed: string[] = [];
    for (const route of writes) {
      const key = `every-${route.operationId}-${randomBytes(6).toString('hex')}`;
      const body = bodyFor(route);
      const send = (sent: unknown) =>
        api(route.method, pathOf(route), {
          as: member,
          ...(sent === undefined ? {} : { body: sent }),
          query: SAMPLE_QUERIES[route.operationId] ?? {},
          headers: { 'idempotency-key': key },
        });
      const first = await send(body);
      const where = `${route.method} ${route.path} (${first.status}): ${first.text}`;
      expect(first.status, where).toBeLessThan(500);
      if (first.status === 400) {
        expect(contractOf(route).body, where).toBeDefined();
        continue;
      }
      expect(first.headers.get('idempotent-replayed'), where).toBeNull();
      const second = await send(body);
      expect(second.status, where).toBe(first.status);
      expect(second.text, where).toBe(first.text);
      expect(second.headers.get('idempotent-replayed'), where).toBe('true');
      if (body !== undefined) {
        // "The same body" is byte for byte: the same JSON with one more space is another request.
        const other = await api(route.method, pathOf(route), {
          as: member,
          rawBody: `${JSON.stringify(body)} `,
          query: SAMPLE_QUERIES[route.operationId] ?? {},
          headers: { 'idempotency-key': key, 'content-type': 'application/json' },
        });
        expect(other.status, `${where}; other body: ${other.text}`).toBe(422);
        expect((other.body as { code: string }).code).toBe('idempotency_key_reused');
      }
      replayed.push(route.operationId);
    }
    // Nearly every write gets past validation with its derived request (multipart uploads may not).
    expect(replayed.length, `replayed: ${replayed.join(', ')}`).toBeGreaterThanOrEqual(writes.length - 3);
  });
});
