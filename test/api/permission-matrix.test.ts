import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AccessLevel, ROUTES, type RouteEntry } from '../../shared/catalogue/index.ts';
import { type ApiResponse, api, createTestUser, type TestUser, uniqueLogin } from '../support/api.ts';
import { bodyFor, contractOf, pathOf, SAMPLE_QUERIES } from '../support/contract-samples.ts';

/**
 * The permission matrix over EVERY catalogued route (docs/ARCHITECTURE.md §4), so a new route is covered the moment
 * it is catalogued:
 *
 * - every non-public route: anonymous → 401 `rest_not_logged_in`; invalid credentials → 401 `invalid_credentials`
 *   with `WWW-Authenticate`; a suspended or banned caller → 403 `rest_forbidden` "Your account is not active.";
 * - routes restricted to a role (`RESTRICTED`): a plain member → 403 `rest_forbidden`, or the route's own
 *   documented 404 when the resource in the path (filled with `1`) does not exist;
 * - GET routes of the admin levels: a host administrator and a community admin are never refused (no 401/403).
 *
 * Routes of access `owner`, `authenticated`, `enrolled_student` and `privacy_gated` depend on data and are
 * covered by their domain's tests. Path parameters are filled with `1`; bodies are the smallest valid body derived
 * from the contract (or `SAMPLE_BODIES` when the derivation cannot satisfy a format), so validation (which, as in
 * WordPress, runs before the permission check) never masks the permission decision.
 */
const RESTRICTED: ReadonlySet<AccessLevel> = new Set([
  'administrator',
  'community_admin',
  'course_admin',
  'space_moderator',
  'space_add_member',
]);
/** Levels a community admin always passes, whatever the resource (decisions.md: global admin acts as space admin). */
const ADMIN_PASSES: ReadonlySet<AccessLevel> = RESTRICTED;

const protectedRoutes = ROUTES.filter((route) => route.access !== 'public') as readonly RouteEntry[];
const restrictedRoutes = protectedRoutes.filter((route) => RESTRICTED.has(route.access));

function expectError(response: ApiResponse, route: RouteEntry, status: number, code: string) {
  expect(response.status, `${route.method} ${route.path}: ${response.text}`).toBe(status);
  const body = response.body as { code?: string; message?: string; data?: { status?: number } };
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  if ((contractOf(route).errorEnvelope ?? 'standard') === 'standard') expect(body.data?.status).toBe(status);
  else expect(body).not.toHaveProperty('data');
}

const cases = (routes: readonly RouteEntry[]) =>
  routes.map((route) => [`${route.method} ${route.path}`, route] as const);

describe('every catalogued route has a known access level', () => {
  it('public routes are only the documented ones', () => {
    // The OpenAPI document and its reference page (with the page's script), and the digest e-mail's unsubscribe
    // link (its signed token is the proof).
    expect(
      ROUTES.filter((route) => route.access === 'public')
        .map((route) => route.operationId)
        .sort(),
    ).toEqual(['getApiReference', 'getApiReferenceScript', 'getOpenApiDocument', 'unsubscribeFromDigest']);
  });
});

describe('authentication on every protected route', () => {
  let suspended: TestUser;
  let banned: TestUser;
  beforeAll(async () => {
    [suspended, banned] = await Promise.all([
      createTestUser({ status: 'suspended' }),
      createTestUser({ status: 'banned' }),
    ]);
  });

  it.each(cases(protectedRoutes))('%s: anonymous → 401 rest_not_logged_in', async (_name, route) => {
    const response = await api(route.method, pathOf(route), { body: bodyFor(route) });
    expectError(response, route, 401, 'rest_not_logged_in');
  });

  it.each(cases(protectedRoutes))(
    '%s: invalid credentials → 401 invalid_credentials',
    async (_name, route) => {
      const header = `Basic ${Buffer.from(`${uniqueLogin('nobody')}:AAAABBBBCCCCDDDDEEEEFFFF`).toString('base64')}`;
      const response = await api(route.method, pathOf(route), {
        body: bodyFor(route),
        headers: { authorization: header },
      });
      expectError(response, route, 401, 'invalid_credentials');
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="community"');
    },
  );

  it.each(cases(protectedRoutes))(
    '%s: suspended and banned callers → 403 not active',
    async (_name, route) => {
      for (const caller of [suspended, banned]) {
        const response = await api(route.method, pathOf(route), { as: caller, body: bodyFor(route) });
        expectError(response, route, 403, 'rest_forbidden');
        expect((response.body as { message: string }).message).toBe('Your account is not active.');
      }
    },
  );
});

describe('role-restricted routes', () => {
  let member: TestUser;
  let hostAdmin: TestUser;
  let communityAdmin: TestUser;
  beforeAll(async () => {
    [member, hostAdmin, communityAdmin] = await Promise.all([
      createTestUser(),
      createTestUser({ hostRole: 'administrator' }),
      createTestUser({ communityRole: 'admin' }),
    ]);
  });

  // One test per check, looping over the routes, so the suite runs (and means something) while the catalogue has
  // no role-restricted route yet, and covers each new one without a change here.
  it('a plain member is refused on every role-restricted route', async () => {
    for (const route of restrictedRoutes) {
      const response = await api(route.method, pathOf(route), {
        as: member,
        body: bodyFor(route),
        query: SAMPLE_QUERIES[route.operationId] ?? {},
      });
      const contract = contractOf(route);
      const notFoundCodes = contract.errors
        .filter((error) => error.status === 404)
        .map((error) => error.code);
      const body = response.body as { code?: string };
      if (response.status === 404 && route.path.includes('{')) {
        expect(notFoundCodes, `${route.operationId} answered an undocumented 404 ${body.code}`).toContain(
          body.code,
        );
      } else {
        expect(
          response.status,
          `${route.operationId} (add a SAMPLE_BODIES entry if this is a 400): ${response.text}`,
        ).toBe(403);
        expect(body.code, route.operationId).toBe('rest_forbidden');
      }
    }
  });

  it('host administrators and community admins are not refused on role-restricted reads', async () => {
    const adminReads = restrictedRoutes.filter(
      (route) => route.method === 'GET' && ADMIN_PASSES.has(route.access),
    );
    for (const route of adminReads) {
      for (const caller of [hostAdmin, communityAdmin]) {
        const response = await api(route.method, pathOf(route), {
          as: caller,
          query: SAMPLE_QUERIES[route.operationId] ?? {},
        });
        expect([401, 403], `${route.operationId}: ${response.text}`).not.toContain(response.status);
      }
    }
  });

  it('every role-restricted route documents its 403 rest_forbidden', () => {
    for (const route of restrictedRoutes) {
      const codes = contractOf(route)
        .errors.filter((error) => error.status === 403)
        .map((error) => error.code);
      expect(codes, route.operationId).toContain('rest_forbidden');
    }
  });
});

describe('matrix coverage', () => {
  it('classifies every route', () => {
    const classified = ROUTES.map((route) => ({
      operationId: route.operationId,
      access: route.access,
      matrix:
        route.access === 'public'
          ? 'public'
          : RESTRICTED.has(route.access)
            ? 'auth + role'
            : 'auth (domain tests)',
    }));
    expect(classified).toHaveLength(ROUTES.length);
  });

  it('derives a body the contract accepts for every restricted route', () => {
    for (const route of restrictedRoutes) {
      const contract = contractOf(route);
      if (!contract.body || contract.bodyKind === 'multipart') continue;
      const result = v.safeParse(contract.body, bodyFor(route));
      expect(
        result.success,
        `${route.operationId}: ${JSON.stringify(result.issues?.map((issue) => issue.message))}`,
      ).toBe(true);
    }
  });
});
