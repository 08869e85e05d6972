import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/catalogue/index.ts';
import { CONTRACTS } from '../../shared/contracts/index.ts';
import { objectEntries } from '../../shared/http/openapi/schema.ts';
import { type ApiResponse, api, apiUrl, createTestUser, type TestUser } from '../support/api.ts';

/** Platform routes: the OpenAPI document, the catch-all 404, body parsing and the gateway's limits. */
// biome-ignore lint/suspicious/noExplicitAny: walking the served document.
type Json = Record<string, any>;

/** A JSON-bodied authenticated route, for malformed-JSON and size tests. */
const JSON_ROUTE = ROUTES.find(
  (route) =>
    route.access !== 'public' &&
    CONTRACTS[route.operationId]?.body &&
    CONTRACTS[route.operationId]?.bodyKind !== 'multipart',
);

function expectNoRoute(response: ApiResponse) {
  expect(response.status, response.text).toBe(404);
  expect(response.body).toEqual({
    code: 'rest_no_route',
    message: 'No route was found matching the URL and request method.',
    data: { status: 404 },
  });
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('x-request-id')).toMatch(/\S+/);
}

describe('GET /v2/openapi.json', () => {
  let response: ApiResponse<Json>;
  let document: Json;
  beforeAll(async () => {
    response = await api<Json>('GET', '/openapi.json');
    document = response.body;
  });

  it('answers 200 JSON without credentials', () => {
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-request-id')).toMatch(/\S+/);
    expect(response.headers.get('cache-control')).toBeNull();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/v2' })]);
    expect(document.info.description).toContain('rest_no_route');
  });

  it('answers the same document with credentials, valid or not', async () => {
    const user = await createTestUser();
    const withUser = await api<Json>('GET', '/openapi.json', { as: user });
    expect(withUser.status).toBe(200);
    expect(withUser.body).toEqual(document);
    const withGarbage = await api<Json>('GET', '/openapi.json', { headers: { authorization: 'Basic !!!' } });
    expect(withGarbage.status).toBe(200);
    expect(withGarbage.body.openapi).toBe('3.1.0');
  });

  it('declares Basic and Bearer security schemes', () => {
    expect(document.components.securitySchemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'documents %s',
    (_name, route) => {
      const operation = document.paths?.[route.path]?.[route.method.toLowerCase()];
      expect(operation, 'path and method are present').toBeDefined();
      const contract = CONTRACTS[route.operationId];
      if (!contract) throw new Error(`no contract for ${route.operationId}`);
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.summary).toBe(contract.summary);
      expect(operation.tags).toEqual([...contract.tags]);
      expect(operation['x-access-level']).toBe(route.access);
      expect(operation.security).toEqual(
        route.access === 'public' ? [] : [{ basicAuth: [] }, { bearerAuth: [] }],
      );

      // Request schemas.
      const parameters: Json[] = operation.parameters ?? [];
      const pathNames = Object.keys((contract.params && objectEntries(contract.params)) ?? {});
      const queryNames = Object.keys((contract.query && objectEntries(contract.query)) ?? {});
      expect(
        parameters
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
      ).toEqual(pathNames.sort());
      expect(
        parameters
          .filter((p) => p.in === 'query')
          .map((p) => p.name)
          .sort(),
      ).toEqual(queryNames.sort());
      for (const parameter of parameters) expect(parameter.schema, parameter.name).toBeTypeOf('object');
      if (contract.body) {
        const mediaType = contract.bodyKind === 'multipart' ? 'multipart/form-data' : 'application/json';
        expect(operation.requestBody?.content?.[mediaType]?.schema).toBeTypeOf('object');
      } else {
        expect(operation.requestBody).toBeUndefined();
      }

      // Success response and its schema.
      const success = operation.responses[String(contract.successStatus ?? 200)];
      const mediaType = contract.textResponse?.contentType.split(';')[0] ?? 'application/json';
      expect(success?.content?.[mediaType]?.schema).toBeTypeOf('object');

      // Every error of the contract, under its status, with its code listed.
      for (const error of contract.errors) {
        const listed: string[] = operation.responses[String(error.status)]?.['x-error-codes'] ?? [];
        expect(listed, `${error.status} ${error.code}`).toContain(error.code);
        expect(operation.responses[String(error.status)].description).toContain(error.code);
        const schema = operation.responses[String(error.status)].content['application/json'].schema;
        const own = schema.anyOf ? schema.anyOf[0] : schema;
        expect(own.allOf[1].properties.code.enum).toContain(error.code);
      }

      // The automatic ones.
      const codesAt = (status: number): string[] =>
        operation.responses[String(status)]?.['x-error-codes'] ?? [];
      if (route.access !== 'public') {
        expect(codesAt(401)).toEqual(expect.arrayContaining(['rest_not_logged_in', 'invalid_credentials']));
        expect(codesAt(403)).toContain('rest_forbidden');
      } else {
        expect(codesAt(401)).toEqual([]);
      }
      if (contract.params || contract.query || contract.body) {
        expect(codesAt(400)).toEqual(
          expect.arrayContaining(['rest_invalid_param', 'rest_missing_callback_param']),
        );
      }
      if (contract.body && contract.bodyKind !== 'multipart')
        expect(codesAt(400)).toContain('rest_invalid_json');
      const envelope = contract.errorEnvelope === 'bare' ? 'BareErrorEnvelope' : 'ErrorEnvelope';
      const envelopeRequires =
        envelope === 'BareErrorEnvelope' ? ['code', 'message'] : ['code', 'message', 'data'];
      expect(document.components.schemas[envelope].required).toEqual(envelopeRequires);
      const GATEWAY_ONLY: Record<string, string> = {
        '413': 'GatewayRequestTooLarge',
        '429': 'GatewayThrottled',
        '500': 'GatewayFunctionError',
        '503': 'GatewayTimeout',
      };
      for (const [status, described] of Object.entries<Json>(operation.responses)) {
        if (Number(status) < 400) continue;
        // A status only the gateway answers refers to its documented answer (a message, no code).
        if (described.$ref) {
          expect(described.$ref, status).toBe(`#/components/responses/${GATEWAY_ONLY[status]}`);
          continue;
        }
        const schema = described.content['application/json'].schema;
        // A status both answer: the contract's envelope, or the gateway's body; any other: the envelope only.
        const gateway = { $ref: '#/components/schemas/GatewayError' };
        const ours = status in GATEWAY_ONLY ? schema.anyOf?.[0] : schema;
        if (status in GATEWAY_ONLY) expect(schema.anyOf, status).toContainEqual(gateway);
        expect(ours.allOf[0], status).toEqual({ $ref: `#/components/schemas/${envelope}` });
      }
      // 429 on every operation, with Retry-After.
      expect(operation.responses['429'], '429').toBeDefined();
    },
  );

  it('documents no route that is not catalogued', () => {
    const documented = Object.entries<Json>(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
  });
});

describe('unknown routes → 404 rest_no_route', () => {
  it.each([
    ['GET', '/v2/nope'],
    ['GET', '/nope'],
    ['GET', '/'],
    ['GET', '/v2'],
    ['DELETE', '/v2/openapi.json'],
    ['POST', '/v2/openapi.json'],
    ['GET', '/v2/openapi.json/extra'],
    ['GET', '/v3/openapi.json'],
  ])('%s %s', async (method, path) => {
    const url = new URL(apiUrl());
    expectNoRoute(await api(method, `${url.origin}${path}`));
  });

  it('a known path with a method it does not serve, even with credentials', async () => {
    const user = await createTestUser();
    const route = ROUTES.find((entry) => entry.access !== 'public' && !entry.path.includes('{'));
    if (!route) return;
    const unserved = (['GET', 'POST', 'PUT', 'DELETE'] as const).find(
      (method) => !ROUTES.some((entry) => entry.path === route.path && entry.method === method),
    );
    if (!unserved) return;
    expectNoRoute(await api(unserved, route.path, { as: user }));
  });
});

describe('request bodies', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser();
  });

  it('malformed JSON → 400 rest_invalid_json', async () => {
    if (!JSON_ROUTE) throw new Error('no catalogued route takes a JSON body');
    const path = JSON_ROUTE.path.replace(/\{[^}]+\}/g, '1');
    for (const rawBody of ['{"email_notifications":', 'not json', '{a:1}', "{'a':1}"]) {
      const response = await api(JSON_ROUTE.method, path, {
        as: user,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, `${rawBody}: ${response.text}`).toBe(400);
      expect(response.body).toMatchObject({ code: 'rest_invalid_json', data: { status: 400 } });
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
    }
  });

  const jsonRoutePath = () => {
    if (!JSON_ROUTE) throw new Error('no catalogued route takes a JSON body');
    return { method: JSON_ROUTE.method, path: JSON_ROUTE.path.replace(/\{[^}]+\}/g, '1') };
  };

  it.each([
    ['text/plain', Buffer.from('{}')],
    ['text/plain;charset=UTF-8', Buffer.from('{}')],
    ['application/x-www-form-urlencoded', Buffer.from('a=1')],
    ['multipart/form-data; boundary=x', Buffer.from('--x--')],
    ['application/jsonp', Buffer.from('{}')],
    [undefined, Buffer.from('{}')],
  ])('a JSON body sent as %s → 415 rest_unsupported_media_type in the envelope', async (type, rawBody) => {
    const { method, path } = jsonRoutePath();
    const response = await api(method, path, {
      as: user,
      rawBody,
      ...(type === undefined ? {} : { headers: { 'content-type': type } }),
    });
    expect(response.status, response.text).toBe(415);
    expect(response.body).toEqual({
      code: 'rest_unsupported_media_type',
      message: 'The request body must be JSON, sent with Content-Type: application/json.',
      data: { status: 415 },
    });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])(
    'a JSON body sent as %s is parsed (and validated)',
    async (type) => {
      const { method, path } = jsonRoutePath();
      const response = await api(method, path, {
        as: user,
        rawBody: '{"no_such_field":1}',
        headers: { 'content-type': type },
      });
      expect(response.status, response.text).toBe(400);
      expect(response.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { no_such_field: expect.any(String) } },
      });
    },
  );

  it.each([
    ['2 MB', 2 * 1024 * 1024],
    ['3.5 MB', 3.5 * 1024 * 1024],
  ])('an unknown body key of %s → a small 400 naming it cut to 100 characters', async (_size, bytes) => {
    const { method, path } = jsonRoutePath();
    const key = `k${'x'.repeat(bytes)}`;
    const response = await api<{ code: string; message: string; data: { params: Record<string, string> } }>(
      method,
      path,
      { as: user, rawBody: JSON.stringify({ [key]: 1 }), headers: { 'content-type': 'application/json' } },
    );
    expect(response.status, response.text.slice(0, 200)).toBe(400);
    expect(response.text.length).toBeLessThan(2048);
    expect(response.body.code).toBe('rest_invalid_param');
    const clipped = `${key.slice(0, 100)}…`;
    expect(response.body.data.params).toEqual({ [clipped]: 'is not a known field' });
    expect(response.body.message).toBe(`Invalid parameter(s): ${clipped}`);
  });

  it('a request over 10 MB → 413', async () => {
    const response = await api('POST', '/openapi.json', { rawBody: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
    expect(response.status).toBe(413);
  });

  it('a 7 MB body (over the 6 MB Lambda payload) → 413', async () => {
    if (!JSON_ROUTE) throw new Error('no catalogued route takes a JSON body');
    const response = await api(JSON_ROUTE.method, JSON_ROUTE.path.replace(/\{[^}]+\}/g, '1'), {
      as: user,
      rawBody: `{"x":"${'a'.repeat(7 * 1024 * 1024)}"}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
  });

  it('a 7 MB body to the catch-all is also 413 (the limit is the gateway’s, before any handler)', async () => {
    const response = await api('POST', '/nope', { rawBody: Buffer.alloc(7 * 1024 * 1024, 'a') });
    expect(response.status).toBe(413);
  });

  it('a body just under the limits reaches the handler', async () => {
    const response = await api('POST', '/nope', { rawBody: Buffer.alloc(1024 * 1024, 'a') });
    expectNoRoute(response);
  });
});
