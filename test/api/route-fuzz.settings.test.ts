import { waitForNotificationCount } from '../support/notifications.ts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, ROUTES, type RouteEntry } from '../../shared/catalogue/index.ts';
import { emitNotification } from '../../shared/domain/notifications/index.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, createTopics, postFeed } from '../support/feeds.ts';
import { type AnswerContext, expectContractAnswer, type Json } from '../support/fuzz/contract-answer.ts';
import { type FuzzRequest, requestArbitrary, validRequestArbitrary } from '../support/fuzz/requests.ts';
import type { SchemaContext } from '../support/fuzz/schema-values.ts';
import { importQuizCourse } from '../support/quiz-course.ts';

/**
 * Property-based fuzzing of EVERY route: for each operation of the served OpenAPI document (read at run time, so
 * a route added to the catalogue is fuzzed without an edit here), requests are generated from the operation's own
 * path, query and body schemas (valid, boundary and hostile values: huge numbers, negative ids, long strings,
 * unicode, prototype keys, wrong types, malformed JSON, another content type) and sent through the local gateway
 * as an enrolled member and as an administrator. Every answer is below 500, and every error is the contract's
 * envelope with a code the document lists for its status. A fixed seed makes a failure reproducible
 * (fast-check prints the seed, path and counterexample).
 *
 * Budget: FUZZ_CASES generated requests per route (default 150), each sent as both callers, so 300 requests per
 * route in `npm test` (measured: about 70 s for 27 routes on the shared 2-core machine, a few ms per request).
 * `npm run fuzz -- --cases N` (optionally `--seed S`) runs this file alone with N cases per route.
 *
 * Nothing is excluded; what is special:
 * - This file runs in the `api-settings` project (after every other API file, alone): fuzzed administrator calls
 *   change site-wide settings (topic configuration) and create and delete shared objects (topics), which would
 *   disturb files running beside it. Every settings document it can read through a GET beside a write (same path,
 *   no parameters) is put back afterwards.
 * - DELETE routes are fuzzed last: they may delete the seeded resources (the callers' own feed, a topic), which the
 *   other routes use to reach their "found" branches. The callers are fresh users, so deleting their data (their
 *   notifications, their feed) harms nothing else.
 * - Multipart routes (uploads) get garbage parts, boundaries and JSON in place of a form, not generated files:
 *   a valid file upload is the upload tests' business; their JSON (presigned) form is fuzzed like any JSON body.
 * - `unsubscribeFromDigest` takes a server-signed token: fuzzed like the rest, but exempt from the check that
 *   some generated value got past validation (see SIGNED_INPUT).
 * - The catalogue must be fully documented: a route missing from the served document fails the first test.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES ?? 150);
/** Per route: the cases × 2 callers, at up to ~100 ms per request on a loaded machine, with headroom. */
const ROUTE_TIMEOUT_MS = Math.max(120_000, CASES_PER_ROUTE * 2 * 250);

let member: TestUser;
let admin: TestUser;
let document: Json;
let context: SchemaContext;
const restores: Array<() => Promise<void>> = [];

/** Validation refusals: an answer with one of these never reached the use case. */
const VALIDATION_CODES = new Set(['rest_invalid_param', 'rest_missing_callback_param', 'rest_invalid_json']);

/**
 * Routes whose only input is signed by the server: a generated value may match the schema but never the
 * signature, so every answer is the contract's `rest_invalid_param` (still fuzzed and judged like every route).
 */
const SIGNED_INPUT = new Set(['unsubscribeFromDigest']);

/** What each route answered, so the last test can tell the generated values got past validation. */
const outcomes = {
  byRoute: new Map<string, Set<string>>(),
  add(route: string, response: { status: number; body: Json }) {
    const seen = this.byRoute.get(route) ?? new Set<string>();
    this.byRoute.set(route, seen);
    seen.add(response.status < 400 ? String(response.status) : `${response.status} ${response.body?.code}`);
  },
};

/**
 * A route that declares no input (no parameter, no body) gets a tenth of the cases: only unknown query parameters
 * and stray bodies vary, and the reference script is a megabyte per answer.
 */
function casesFor(operation: Json): number {
  const hasInput = (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined;
  return hasInput ? CASES_PER_ROUTE : Math.max(1, Math.ceil(CASES_PER_ROUTE / 10));
}

/** DELETE routes last (see above); otherwise catalogue order. */
const routes: readonly RouteEntry[] = [
  ...ROUTES.filter((route) => route.method !== 'DELETE'),
  ...ROUTES.filter((route) => route.method === 'DELETE'),
];

/** Every integer under a key ending in `id` in a response body: the seeded resources' ids. */
function idsIn(value: unknown, into: Set<number>): Set<number> {
  if (Array.isArray(value)) for (const item of value) idsIn(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (/id$/.test(key) && Number.isSafeInteger(item) && (item as number) > 0) into.add(item as number);
      else idsIn(item, into);
    }
  }
  return into;
}

/** Settings documents (a GET and a PUT/POST on one parameterless path): snapshot now, write back after. */
async function snapshotSettings(): Promise<void> {
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    const write = item.put ? 'PUT' : item.post ? 'POST' : undefined;
    const writer = write === undefined ? undefined : (item[write.toLowerCase()] as Json);
    // Site-wide documents only (an administrator's write): a caller's own settings belong to the fresh callers.
    if (!item.get || !writer?.requestBody || path.includes('{')) continue;
    if (!['administrator', 'community_admin'].includes(writer['x-access-level'])) continue;
    // A write that creates (201) is a collection's (POST /admin/topics), not a document's.
    if (writer.responses?.['201']) continue;
    const before = await api<Json>('GET', path, { as: admin });
    if (before.status !== 200 || before.body === null || typeof before.body !== 'object') continue;
    restores.push(async () => {
      const restored = await api(write as string, path, { as: admin, body: before.body });
      expect(restored.status, `restoring ${path}: ${restored.text}`).toBeLessThan(300);
    });
  }
}

beforeAll(async () => {
  const course = await importQuizCourse();
  member = course.student;
  admin = await createTestUser({ hostRole: 'administrator' });
  const served = await api<Json>('GET', '/openapi.json');
  document = served.body;

  // Resources for the generated ids to find: a space, topics, a feed with a comment, notifications, a quiz result.
  const ids = new Set<number>([member.id, admin.id, course.courseId, ...Object.values(course.lessons)]);
  ids.add(await createSpace({ members: [[member, 'member']] }));
  for (const id of await createTopics(2)) ids.add(id);
  const feed = await postFeed(member, { message: 'Fuzzed feed' });
  idsIn(feed, ids);
  idsIn((await api('POST', `/feeds/${feed.id}/comments`, { as: member, body: { message: 'Hi' } })).body, ids);
  for (const recipient of [member, admin]) {
    await emitNotification({
      recipientId: recipient.id,
      type: 'mention',
      actorId: null,
      title: 'Fuzz',
      message: 'Route fuzz',
      actionUrl: '/spaces/1',
      objectId: feed.id as number,
      objectType: 'feed',
    });
  }
  // Stored by the notify worker a moment later: their ids join the pool once listed.
  for (const recipient of [member, admin]) idsIn(await waitForNotificationCount(recipient, 1), ids);
  const submitted = await api(
    'POST',
    `/courses/${course.courseId}/lessons/${course.lessons.quiz}/quiz/submit`,
    {
      as: member,
      body: { answers: {} },
    },
  );
  idsIn(submitted.body, ids);
  context = { components: document.components?.schemas ?? {}, knownIds: [...ids] };
  await snapshotSettings();
}, 120_000);

afterAll(async () => {
  for (const restore of restores) await restore();
});

function describeRequest(route: RouteEntry, request: FuzzRequest, caller: string): string {
  const body = request.body === undefined ? '' : ` [${request.contentType}] ${request.body.slice(0, 300)}`;
  return `${route.method} ${request.path}?${request.query.slice(0, 300)} as ${caller}${body}`;
}

async function send(route: RouteEntry, request: FuzzRequest, as: TestUser) {
  // The raw path and query go out as generated (api() would re-encode a query object).
  return api<Json>(route.method, `${request.path}${request.query ? `?${request.query}` : ''}`, {
    as,
    ...(request.body === undefined ? {} : { rawBody: request.body }),
    headers: request.contentType === undefined ? {} : { 'content-type': request.contentType },
  });
}

/**
 * Requests valid in every part of their schemas (validRequestArbitrary), sent until one gets past validation (at
 * most PROBES, usually the first): the schemas cannot say everything validation checks (a title that is only
 * spaces, a parent that does not exist), so a short run (`npm run fuzz -- --cases 5`) still reaches every route's
 * use case, and the last test's check holds for any number of cases. Each answer is judged like the others.
 */
const PROBES = 10;
async function probeValid(route: RouteEntry, operation: Json): Promise<void> {
  const key = `${route.method} ${route.path}`;
  const candidates = fc.sample(validRequestArbitrary(route.path, operation, context), {
    numRuns: PROBES,
    seed: SEED,
  });
  for (const request of candidates) {
    const response = await send(route, request, admin);
    outcomes.add(key, response);
    expectContractAnswer(response, { operation, request: describeRequest(route, request, 'administrator') });
    if (response.status < 400 || !VALIDATION_CODES.has(response.body?.code)) return;
  }
}

describe('every route, fuzzed from its OpenAPI description', () => {
  it('covers every catalogued route (the served document describes each one)', () => {
    for (const route of ROUTES) {
      expect(
        document.paths?.[route.path]?.[route.method.toLowerCase()],
        `${route.method} ${route.path}`,
      ).toBeDefined();
    }
    expect(document.servers?.[0]?.url).toBe(API_BASE_PATH);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: never 5xx, every error in the contract envelope with a documented code',
    async (_name, route) => {
      const operation = document.paths[route.path][route.method.toLowerCase()] as Json;
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route.method, route.path, operation, context), async (request) => {
          for (const [caller, as] of [
            ['member', member],
            ['administrator', admin],
          ] as const) {
            const response = await send(route, request, as);
            outcomes.add(`${route.method} ${route.path}`, response);
            const answer: AnswerContext = { operation, request: describeRequest(route, request, caller) };
            expectContractAnswer(response, answer);
          }
        }),
        { seed: SEED, numRuns: casesFor(operation), endOnFailure: true },
      );
      await probeValid(route, operation);
    },
    ROUTE_TIMEOUT_MS,
  );

  it('reaches past validation on every route (the generated values are not all refused at the door)', () => {
    for (const route of routes) {
      const seen = [...(outcomes.byRoute.get(`${route.method} ${route.path}`) ?? [])];
      if (SIGNED_INPUT.has(route.operationId)) continue;
      const beyond = seen.filter((outcome) => !VALIDATION_CODES.has(outcome.split(' ')[1] ?? ''));
      expect(
        beyond,
        `${route.method} ${route.path}: every request was refused by validation (answers: ${seen.join(', ')})`,
      ).not.toEqual([]);
      if (process.env.FUZZ_STATS) console.log(`${route.method} ${route.path}: ${seen.sort().join(', ')}`);
    }
  });
});
