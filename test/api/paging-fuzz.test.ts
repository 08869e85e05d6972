import { waitForNotificationCount } from '../support/notifications.ts';
import fc from 'fast-check';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteEntry } from '../../shared/catalogue/index.ts';
import { bareErrorBodySchema, errorBodySchema } from '../../shared/contracts/envelopes.ts';
import { CONTRACTS } from '../../shared/contracts/index.ts';
import { emitNotification } from '../../shared/domain/notifications/index.ts';
import { objectEntries } from '../../shared/http/openapi/schema.ts';
import { type ApiResponse, api, createTestUser, type TestUser } from '../support/api.ts';
import { notAnInteger } from '../support/fuzz/values.ts';

/**
 * Property-based fuzzing of `page`, `per_page` and `cursor` on every catalogued route whose contract takes any of
 * them (found from the catalogue and the contracts, so routes added later are covered without an edit): huge,
 * negative, zero, non-numeric, unicode, empty and long values, forged and altered cursors, repeated and malformed
 * parameters. Every answer is below 500, and every error is the contract's envelope with a code the served
 * OpenAPI document lists for that status. A fixed seed makes a failure reproducible.
 */
// biome-ignore lint/suspicious/noExplicitAny: walking the served document.
type Json = Record<string, any>;

const SEED = 20_240_607;
const RUNS_PER_ROUTE = 150;
const PAGING_PARAMETERS = ['page', 'per_page', 'cursor'] as const;

const pagedRoutes: readonly RouteEntry[] = ROUTES.filter((route) => {
  const query = CONTRACTS[route.operationId]?.query;
  const entries = query ? objectEntries(query) : undefined;
  return entries !== undefined && PAGING_PARAMETERS.some((name) => Object.hasOwn(entries, name));
});

// ---- Generated values --------------------------------------------------------------------------------------

/** Valid page numbers, small and far past the end, or anything else (so each run reaches some layer). */
const pageLike = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 5 }).map(String), weight: 3 },
  { arbitrary: fc.integer({ min: 6, max: 999_999_999_999_999 }).map(String), weight: 2 },
  { arbitrary: fc.constantFrom('21474838', '999999999999999', '100001', '1000'), weight: 1 },
  { arbitrary: notAnInteger, weight: 2 },
);
const perPageLike = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 100 }).map(String), weight: 4 },
  { arbitrary: fc.constantFrom('1', '100', '101', '0'), weight: 1 },
  { arbitrary: notAnInteger, weight: 2 },
);

/** Cursors: issued ones (harvested from the routes' own next_page_url), altered ones, and plain garbage. */
const cursorLike = (issued: readonly string[]) => {
  const bytes = (cursor: string) => Buffer.from(cursor, 'base64url');
  const fromIssued =
    issued.length === 0
      ? []
      : [
          fc.constantFrom(...issued),
          fc
            .tuple(fc.constantFrom(...issued), fc.nat(), fc.integer({ min: 0, max: 7 }))
            .map(([cursor, at, bit]) => {
              const altered = bytes(cursor);
              const index = at % altered.length;
              altered[index] = (altered[index] ?? 0) ^ (1 << bit);
              return altered.toString('base64url');
            }),
          fc
            .tuple(fc.constantFrom(...issued), fc.nat())
            .map(([cursor, cut]) => cursor.slice(0, cut % cursor.length)),
          fc.tuple(fc.constantFrom(...issued), fc.constantFrom(...issued)).map(([a, b]) => `${a}${b}`),
        ];
  return fc.oneof(
    ...fromIssued,
    fc.constantFrom('', 'e30', 'A', 'AAAA', 'null', '..', 'a+b/c=', 'A'.repeat(2048), 'A'.repeat(2049)),
    fc.uint8Array({ maxLength: 400 }).map((value) => Buffer.from(value).toString('base64url')),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value) ?? '').toString('base64url')),
  );
};

/** Raw query fragments URLSearchParams would never produce. */
const RAW_FRAGMENTS = [
  'page=%',
  'page=%E0%A4%A',
  'per_page=%FF',
  'cursor=%zz',
  'page[]=1',
  'page=1&page=2',
  'per_page',
];

const queryArbitrary = (issued: readonly string[]) =>
  fc.record({
    page: fc.option(pageLike, { nil: undefined, freq: 5 }),
    per_page: fc.option(perPageLike, { nil: undefined, freq: 5 }),
    cursor: fc.option(cursorLike(issued), { nil: undefined, freq: 3 }),
    repeat: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 12 },
      { arbitrary: fc.constantFrom<'page' | 'per_page' | 'cursor'>('page', 'per_page', 'cursor'), weight: 1 },
    ),
    raw: fc.oneof(
      { arbitrary: fc.constant(''), weight: 12 },
      { arbitrary: fc.constantFrom(...RAW_FRAGMENTS), weight: 1 },
    ),
  });

type GeneratedQuery = {
  page: string | undefined;
  per_page: string | undefined;
  cursor: string | undefined;
  repeat: 'page' | 'per_page' | 'cursor' | undefined;
  raw: string;
};

function queryString(generated: GeneratedQuery): string {
  const search = new URLSearchParams();
  for (const name of PAGING_PARAMETERS) {
    const value = generated[name];
    if (value !== undefined) search.append(name, value);
  }
  if (generated.repeat) search.append(generated.repeat, generated[generated.repeat] ?? '1');
  return [search.toString(), generated.raw].filter((part) => part !== '').join('&');
}

// ---- The run -----------------------------------------------------------------------------------------------

let admin: TestUser;
let document: Json;

/** A route's path with its placeholders filled: the caller's username for usernames, the caller's id otherwise. */
const pathOf = (route: RouteEntry) =>
  route.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    /username/.test(name) ? admin.username : String(admin.id),
  );

const cursorsIn = (text: string): string[] =>
  [...text.matchAll(/[?&]cursor=([A-Za-z0-9_-]+)/g)].map((match) => match[1] as string);

function expectContractAnswer(route: RouteEntry, response: ApiResponse<Json>, query: string) {
  const where = `${route.method} ${route.path}?${query} → ${response.status} ${response.text.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect(response.headers.get('x-request-id'), where).toMatch(/\S/);
  if (response.status < 400) return;
  expect(response.headers.get('content-type'), where).toBe('application/json; charset=utf-8');
  const envelope =
    CONTRACTS[route.operationId]?.errorEnvelope === 'bare' ? bareErrorBodySchema : errorBodySchema;
  expect(v.is(envelope, response.body), where).toBe(true);
  if (envelope === errorBodySchema) expect(response.body.data.status, where).toBe(response.status);
  const documented =
    document.paths[route.path][route.method.toLowerCase()].responses[String(response.status)];
  expect(documented?.['x-error-codes'] ?? [], where).toContain(response.body.code);
}

beforeAll(async () => {
  admin = await createTestUser({ hostRole: 'administrator' });
  // The template domain's list gets real pages (and cursors); other routes page whatever exists.
  for (let index = 0; index < 12; index += 1) {
    await emitNotification({
      recipientId: admin.id,
      type: index % 3 === 0 ? 'mention' : 'space_join',
      actorId: null,
      title: `Fuzz ${index}`,
      message: 'Paging fuzz',
      actionUrl: '/spaces/1',
      objectId: index + 1,
      objectType: 'space',
    });
  }
  // Stored by the notify worker a moment later.
  await waitForNotificationCount(admin, 12);
  const served = await api<Json>('GET', '/openapi.json');
  document = served.body;
});

describe('paging parameters, fuzzed', () => {
  it('covers the catalogued list routes', () => {
    expect(pagedRoutes.map((route) => route.operationId)).toContain('listNotifications');
  });

  it.each(pagedRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: never 5xx, every error in the contract envelope with a documented code',
    async (_name, route) => {
      const path = pathOf(route);
      // Issued cursors to alter: page 1 at a few sizes (and the next pages they lead to).
      const issued: string[] = [];
      for (const perPage of ['1', '2', '5']) {
        const first = await api<Json>(route.method, `${path}?per_page=${perPage}`, { as: admin });
        expectContractAnswer(route, first, `per_page=${perPage}`);
        issued.push(...cursorsIn(first.text));
      }
      if (route.operationId === 'listNotifications') expect(issued.length).toBeGreaterThan(0);

      await fc.assert(
        fc.asyncProperty(queryArbitrary(issued), async (generated) => {
          const query = queryString(generated);
          const response = await api<Json>(route.method, `${path}?${query}`, { as: admin });
          expectContractAnswer(route, response, query);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE },
      );
    },
    120_000,
  );
});
