import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteEntry } from '../../shared/catalogue/index.ts';
import { CONTRACTS } from '../../shared/contracts/index.ts';
import { paginationBlockA, paginatorB, paginatorC, paginatorD } from '../../shared/contracts/envelopes.ts';
import {
  boolQuery,
  cursorQuery,
  idParam,
  integer,
  pageQuery,
  perPageQuery,
} from '../../shared/contracts/fields.ts';
import { memberSummarySchema } from '../../shared/contracts/members.ts';
import { named } from '../../shared/contracts/openapi-metadata.ts';
import { type AnySchema, defineOperation, type Operation } from '../../shared/contracts/operation.ts';
import { buildOpenApiDocument, openApiDocument } from '../../shared/http/openapi/document.ts';

/** The generator on synthetic contracts (every feature) and on the real catalogue. */
// biome-ignore lint/suspicious/noExplicitAny: walking generated JSON.
type Json = Record<string, any>;

const route = (
  overrides: Partial<RouteEntry> & Pick<RouteEntry, 'operationId' | 'method' | 'path'>,
): RouteEntry => ({
  access: 'authenticated',
  entry: `functions/http/test/${overrides.operationId}.ts`,
  grants: {},
  ...overrides,
});

const createThing = defineOperation({
  operationId: 'createThing',
  summary: 'Create a thing',
  description: 'Creates.',
  tags: ['Things'],
  params: v.object({ space_id: idParam() }),
  query: v.object({
    page: pageQuery(),
    per_page: perPageQuery(20),
    flag: v.optional(v.string()),
    on: boolQuery(),
    after: v.optional(v.pipe(v.string(), v.transform(Number), v.minValue(5, 'must be a late enough number'))),
  }),
  body: v.strictObject({
    title: v.pipe(v.string(), v.maxLength(192)),
    note: v.optional(
      v.pipe(
        v.string(),
        v.transform((text) => text.trim()),
      ),
    ),
    check: v.optional(v.custom<string>((value) => typeof value === 'string')),
  }),
  response: v.object({
    id: v.number(),
    created: v.pipe(
      v.string(),
      v.transform((text) => text.length),
    ),
  }),
  successStatus: 201,
  errors: [
    { status: 403, code: 'rest_forbidden', description: 'Not a member of the space.' },
    { status: 404, code: 'not_found', description: 'No such space.' },
    { status: 409, code: 'duplicate', description: 'Already there.' },
  ],
});

const submitQuiz = defineOperation({
  operationId: 'submitQuiz',
  summary: 'Submit',
  tags: ['Quizzes'],
  body: v.strictObject({ answers: v.optional(v.record(v.string(), v.string())) }),
  response: v.object({ ok: v.boolean() }),
  errors: [{ status: 404, code: 'quiz_not_found', description: 'No quiz.' }],
  errorEnvelope: 'bare',
});

const upload = defineOperation({
  operationId: 'upload',
  summary: 'Upload',
  tags: ['Media'],
  body: v.object({ file: v.string() }),
  bodyKind: 'multipart',
  response: v.object({ ok: v.boolean() }),
  errors: [],
});

const publicThing = defineOperation({
  operationId: 'publicThing',
  summary: 'Public',
  tags: ['Things'],
  response: v.object({ ok: v.boolean() }),
  errors: [],
});

const contracts: Record<string, Operation> = { createThing, submitQuiz, upload, publicThing };
const routes: RouteEntry[] = [
  route({ operationId: 'createThing', method: 'POST', path: '/spaces/{space_id}/things' }),
  route({ operationId: 'submitQuiz', method: 'POST', path: '/quiz', access: 'enrolled_student' }),
  route({ operationId: 'upload', method: 'POST', path: '/media/upload' }),
  route({ operationId: 'publicThing', method: 'GET', path: '/spaces/{space_id}/things', access: 'public' }),
];

const document = buildOpenApiDocument(routes, contracts) as unknown as Json;
const op = (path: string, method: string): Json => document.paths[path][method];
const codes = (operation: Json, status: number): string[] =>
  operation.responses[String(status)]?.['x-error-codes'];

describe('OpenAPI generator', () => {
  it('is OpenAPI 3.1 with a relative server, security schemes and the cross-cutting rules', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/v2' })]);
    expect(document.components.securitySchemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const description: string = document.info.description;
    for (const fact of [
      'rest_not_logged_in',
      'invalid_credentials',
      'WWW-Authenticate',
      'rest_no_route',
      'rest_invalid_json',
      'per_page',
      'cursor',
      'YYYY-MM-DD HH:MM:SS',
      'YYYY-MM-DDTHH:MM:SS',
      'x-request-id',
      'no-store',
      'CORS',
      '201',
    ]) {
      expect(description, fact).toContain(fact);
    }
    expect(document.tags.map((tag: Json) => tag.name)).toEqual(['Media', 'Quizzes', 'Things']);
  });

  it('describes an operation: ids, tags, security, parameters, body, success and errors', () => {
    const post = op('/spaces/{space_id}/things', 'post');
    expect(post).toMatchObject({
      operationId: 'createThing',
      summary: 'Create a thing',
      tags: ['Things'],
      security: [{ basicAuth: [] }, { bearerAuth: [] }],
      'x-access-level': 'authenticated',
    });
    // The contract's description, then what the access level requires.
    expect(post.description).toBe('Creates.\n\nAccess: Any signed-in, active member.');
    const parameters = Object.fromEntries(
      post.parameters.map((parameter: Json) => [parameter.name, parameter]),
    );
    // Integers as integers with their bounds (the server parses the digits it receives).
    expect(parameters.space_id).toEqual({
      name: 'space_id',
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    });
    expect(parameters.page).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, default: 1 },
    });
    expect(parameters.per_page.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(parameters.flag).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
    expect(parameters.on).toMatchObject({ in: 'query', required: false, schema: { type: 'boolean' } });
    expect(parameters.after).toMatchObject({
      schema: { type: 'string' },
      description: 'Must be a late enough number.',
    });

    const body = post.requestBody.content['application/json'].schema;
    expect(post.requestBody.required).toBe(true);
    expect(body).toMatchObject({ type: 'object', required: ['title'], additionalProperties: false });
    expect(body.properties.title).toEqual({ type: 'string', maxLength: 192 });
    expect(body.properties.check).toEqual({}); // `custom` cannot be expressed: no constraint, no crash
    expect(JSON.stringify(document)).not.toContain('$schema');

    expect(Object.keys(post.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(post.responses['201'].content['application/json'].schema.properties.id).toEqual({
      type: 'number',
    });
    expect(post.responses['201'].headers).toHaveProperty('cache-control');
    expect(codes(post, 400)).toEqual([
      'rest_missing_callback_param',
      'rest_invalid_param',
      'rest_invalid_json',
    ]);
    expect(codes(post, 401)).toEqual(['rest_not_logged_in', 'invalid_credentials']);
    expect(codes(post, 403)).toEqual(['rest_forbidden']);
    expect(post.responses['403'].description).toMatch(/Not a member of the space/);
    expect(post.responses['403'].description).toMatch(/not active/);
    expect(codes(post, 404)).toEqual(['not_found']);
    expect(codes(post, 415)).toEqual(['rest_unsupported_media_type']);
    expect(codes(post, 503)).toEqual(['service_unavailable']);
    expect(post.responses['503'].headers).toHaveProperty('cache-control');
    // 503 is also the gateway's timeout answer: either body (the gateway's declares `code`, never sent).
    expect(post.responses['503'].content['application/json'].schema.anyOf).toEqual([
      expect.objectContaining({ allOf: expect.any(Array) }),
      { $ref: '#/components/schemas/GatewayError' },
    ]);
    expect(post.responses['503'].description).toContain('GatewayTimeout');
    expect(post.responses['401'].headers).toHaveProperty('www-authenticate');
    // The shared envelope by reference, narrowed to this status's codes.
    const error = post.responses['409'].content['application/json'].schema;
    expect(error).toEqual({
      allOf: [
        { $ref: '#/components/schemas/ErrorEnvelope' },
        {
          type: 'object',
          properties: { code: { type: 'string', enum: ['duplicate', 'request_in_progress'] } },
          required: ['code'],
        },
      ],
    });
    expect(document.components.schemas.ErrorEnvelope.required).toEqual(['code', 'message', 'data']);
    expect(post.responses['409'].description).toContain('`duplicate`');
    // The gateway's own 413 and 429: its answers, documented apart and referred to; 429 says when to try again.
    expect(post.responses['413']).toEqual({ $ref: '#/components/responses/GatewayRequestTooLarge' });
    expect(post.responses['429']).toEqual({ $ref: '#/components/responses/GatewayThrottled' });
    const throttled = document.components.responses.GatewayThrottled;
    expect(throttled.headers['retry-after']).toEqual({ $ref: '#/components/headers/RetryAfter' });
    expect(throttled.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/GatewayError',
    });
    expect(document.components.schemas.GatewayError.properties).toHaveProperty('code');
    expect(document['x-gateway-responses']).toEqual({
      '413': { $ref: '#/components/responses/GatewayRequestTooLarge' },
      '429': { $ref: '#/components/responses/GatewayThrottled' },
      '500': {
        description: expect.stringContaining('crash'),
        schema: { $ref: '#/components/schemas/GatewayError' },
      },
      '503': { $ref: '#/components/responses/GatewayTimeout' },
    });
  });

  it('documents 429 with Retry-After on every operation', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
        const response = (operation as { responses: Record<string, Json> }).responses['429'];
        const resolved = response?.$ref ? document.components.responses.GatewayThrottled : response;
        expect(resolved?.headers?.['retry-after'], `${method} ${path}`).toEqual({
          $ref: '#/components/headers/RetryAfter',
        });
      }
    }
  });

  it('declares the error data: status, params (a list or a map) and field', () => {
    const data = document.components.schemas.ErrorData;
    expect(document.components.schemas.ErrorEnvelope.properties.data).toEqual({
      $ref: '#/components/schemas/ErrorData',
    });
    expect(data.required).toEqual(['status']);
    expect(data.properties.status).toMatchObject({ type: 'integer' });
    expect(data.properties.params.anyOf).toEqual([
      { type: 'array', items: { type: 'string' } },
      expect.objectContaining({ type: 'object', additionalProperties: { type: 'string' } }),
    ]);
    expect(data.properties.field).toMatchObject({ type: 'string' });
  });

  it('uses the bare error envelope where the contract says so', () => {
    const post = op('/quiz', 'post');
    const bare = { $ref: '#/components/schemas/BareErrorEnvelope' };
    expect(post.responses['404'].content['application/json'].schema.allOf[0]).toEqual(bare);
    expect(post.responses['401'].content['application/json'].schema.allOf[0]).toEqual(bare);
    expect(document.components.schemas.BareErrorEnvelope.required).toEqual(['code', 'message']);
    expect(document.components.schemas.BareErrorEnvelope.properties).not.toHaveProperty('data');
    expect(post.requestBody.required).toBe(false);
  });

  it('documents multipart bodies as form data and, without their files, as JSON (with JSON refusals)', () => {
    const post = op('/media/upload', 'post');
    expect(Object.keys(post.requestBody.content)).toEqual(['multipart/form-data', 'application/json']);
    const json = post.requestBody.content['application/json'].schema;
    expect(
      Object.values(json.properties ?? {}).some((property) => (property as Json).format === 'binary'),
    ).toBe(false);
    expect(codes(post, 400)).toEqual([
      'rest_missing_callback_param',
      'rest_invalid_param',
      'rest_invalid_json',
    ]);
    expect(codes(post, 415)).toEqual(['rest_unsupported_media_type']);
  });

  it('public routes have no security and no automatic 400/401/403', () => {
    const get = op('/spaces/{space_id}/things', 'get');
    expect(get.security).toEqual([]);
    expect(Object.keys(get.responses)).toEqual(['200', '304', '413', '429', '500', '503']);
    // Only the gateway answers 503 here: its response, by reference.
    expect(get.responses['503']).toEqual({ $ref: '#/components/responses/GatewayTimeout' });
    expect(get.description).toBe('Public.\n\nAccess: Public: no credentials needed.');
    expect(get.responses['200'].headers).not.toHaveProperty('cache-control');
  });

  it('refuses a catalogued route without a contract', () => {
    expect(() =>
      buildOpenApiDocument([route({ operationId: 'ghost', method: 'GET', path: '/ghost' })], {}),
    ).toThrow(/ghost/);
  });

  it('documents every catalogued route from the real registry, and memoizes it', () => {
    const real = openApiDocument() as unknown as Json;
    expect(openApiDocument()).toBe(real);
    for (const entry of ROUTES) {
      const described = real.paths[entry.path]?.[entry.method.toLowerCase()];
      expect(described?.operationId, `${entry.method} ${entry.path}`).toBe(entry.operationId);
      const contract = CONTRACTS[entry.operationId];
      const mediaType = contract?.textResponse?.contentType.split(';')[0] ?? 'application/json';
      expect(
        described.responses[String(contract?.successStatus ?? 200)].content[mediaType].schema,
      ).toBeTypeOf('object');
    }
    JSON.parse(JSON.stringify(real));
  });

  it('documents a text success body under its own media type, as a string', () => {
    const real = openApiDocument() as unknown as Json;
    expect(real.paths['/docs'].get.responses['200'].content).toEqual({
      'text/html': { schema: { type: 'string' } },
    });
  });
});

describe('OpenAPI shared shapes (components)', () => {
  const item = v.pipe(v.object({ id: integer(), who: memberSummarySchema }), named('Thing'));
  const listThings = defineOperation({
    operationId: 'listThings',
    summary: 'List things',
    tags: ['Things'],
    query: v.object({ page: pageQuery(), per_page: perPageQuery(10), cursor: cursorQuery() }),
    response: v.object({ things: paginatorB(item), pagination: paginationBlockA() }),
    errors: [],
  });
  const otherThings = defineOperation({
    operationId: 'otherThings',
    summary: 'Other things',
    tags: ['Things'],
    response: v.object({ feeds: paginatorC(item), media: paginatorD(item), again: paginatorB(item) }),
    errors: [],
  });
  const generated = buildOpenApiDocument(
    [
      route({ operationId: 'listThings', method: 'GET', path: '/things' }),
      route({ operationId: 'otherThings', method: 'GET', path: '/other-things' }),
    ],
    { listThings, otherThings },
  ) as unknown as Json;
  const schemas = generated.components.schemas;
  const response = (path: string) =>
    generated.paths[path].get.responses['200'].content['application/json'].schema;

  it('lists each named shape once and refers to it, also from builders called twice', () => {
    expect(Object.keys(schemas).sort()).toEqual(
      [
        'ErrorData',
        'ErrorEnvelope',
        'GatewayError',
        'MemberSummary',
        'PaginationBlockA',
        'PaginatorB_Thing',
        'PaginatorC_Thing',
        'PaginatorD_Thing',
        'PaginatorLink',
        'Thing',
      ].sort(),
    );
    expect(response('/things').properties).toEqual({
      things: { $ref: '#/components/schemas/PaginatorB_Thing' },
      pagination: { $ref: '#/components/schemas/PaginationBlockA' },
    });
    expect(response('/other-things').properties).toEqual({
      feeds: { $ref: '#/components/schemas/PaginatorC_Thing' },
      media: { $ref: '#/components/schemas/PaginatorD_Thing' },
      again: { $ref: '#/components/schemas/PaginatorB_Thing' },
    });
    expect(schemas.PaginatorB_Thing.properties.data).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Thing' },
    });
    expect(schemas.PaginatorB_Thing.properties.links.items).toEqual({
      $ref: '#/components/schemas/PaginatorLink',
    });
    expect(schemas.Thing.properties.who).toEqual({ $ref: '#/components/schemas/MemberSummary' });
    expect(JSON.stringify(generated)).not.toMatch(/"openapi":\{|"component":/);
  });

  it('leaves the paginator of an unnamed item inline', () => {
    const anonymous = defineOperation({
      operationId: 'anonymous',
      summary: 'Anonymous',
      tags: ['Things'],
      response: v.object({ list: paginatorB(v.object({ id: integer() })) }),
      errors: [],
    });
    const built = buildOpenApiDocument([route({ operationId: 'anonymous', method: 'GET', path: '/a' })], {
      anonymous,
    }) as unknown as Json;
    const list = built.paths['/a'].get.responses['200'].content['application/json'].schema.properties.list;
    expect(list.type).toBe('object');
    expect(list.properties.links.items).toEqual({ $ref: '#/components/schemas/PaginatorLink' });
  });

  it('refuses two different schemas under one name', () => {
    const clash = (id: string, shape: AnySchema) =>
      defineOperation({ operationId: id, summary: id, tags: ['Things'], response: shape, errors: [] });
    const first = clash('first', v.pipe(v.object({ a: v.string() }), named('Clash')));
    const second = clash('second', v.pipe(v.object({ b: v.string() }), named('Clash')));
    expect(() =>
      buildOpenApiDocument(
        [
          route({ operationId: 'first', method: 'GET', path: '/first' }),
          route({ operationId: 'second', method: 'GET', path: '/second' }),
        ],
        { first, second },
      ),
    ).toThrow(/Clash/);
  });

  it('describes the member summary badge as a nullable object (always-null fields vanish from clients)', () => {
    expect(schemas.MemberSummary.properties.badge).toMatchObject({ type: ['object', 'null'] });
    expect(schemas.MemberSummary.properties.badge.description).toMatch(/null/);
  });
});

describe('the real document', () => {
  const real = openApiDocument() as unknown as Json;
  const operations = Object.values<Json>(real.paths).flatMap((item) => Object.values<Json>(item));

  it('issue 21 item 17: documents include_answers as the boolean the server takes (default true)', () => {
    const parameters: Json[] =
      real.paths['/courses/{course_id}/lessons/{lesson_id}/quiz/result'].get.parameters;
    const includeAnswers = parameters.find((parameter) => parameter.name === 'include_answers');
    expect(includeAnswers?.schema).toMatchObject({ type: 'boolean', default: true });
    expect(includeAnswers?.schema).not.toHaveProperty('enum');
  });

  it('gives every operation a description that says what access it needs', () => {
    expect(operations.length).toBe(ROUTES.length);
    for (const operation of operations) {
      expect(operation.description, operation.operationId).toMatch(/^\S[\s\S]*\n\nAccess: \S/);
    }
  });

  it('gives every tag a description', () => {
    for (const tag of real.tags) expect(tag.description, tag.name).toMatch(/\S/);
  });

  it('documents integer path and paging parameters as integers with their bounds', () => {
    for (const operation of operations) {
      for (const parameter of operation.parameters ?? []) {
        const where = `${operation.operationId} ${parameter.name}`;
        if (parameter.in === 'path' && (parameter.name === 'id' || parameter.name.endsWith('_id'))) {
          expect(parameter.schema, where).toMatchObject({ type: 'integer', minimum: 1 });
        }
        if (parameter.name === 'page')
          expect(parameter.schema, where).toMatchObject({ type: 'integer', minimum: 1 });
        // Id filters in queries are integers with a lower bound (0 may mean "none", e.g. topics' parent_id).
        if (
          parameter.in === 'query' &&
          parameter.name.endsWith('_id') &&
          parameter.schema.type !== 'string'
        ) {
          expect(parameter.schema, where).toMatchObject({ type: 'integer' });
          expect(parameter.schema.minimum, where).toBeGreaterThanOrEqual(0);
        }
        if (parameter.name === 'per_page') {
          expect(parameter.schema, operation.operationId).toMatchObject({
            type: 'integer',
            minimum: 1,
            maximum: 100,
          });
        }
      }
    }
  });

  it('says why integer fields of a notification can be null', () => {
    const notification = real.components.schemas.Notification;
    for (const field of ['actor_id', 'object_id', 'xprofile']) {
      expect(notification.properties[field].anyOf, field).toContainEqual({ type: 'null' });
      expect(notification.properties[field].description, field).toMatch(/null/i);
    }
  });

  it('documents 415 for every operation with a JSON body, and for every non-GET one without (it judges a body)', () => {
    for (const entry of ROUTES) {
      const contract = CONTRACTS[entry.operationId];
      const operation = real.paths[entry.path][entry.method.toLowerCase()];
      const judged = contract?.body !== undefined || (contract !== undefined && entry.method !== 'GET');
      expect(operation.responses['415']?.['x-error-codes'], entry.operationId).toEqual(
        judged ? ['rest_unsupported_media_type'] : undefined,
      );
    }
  });

  it('documents Idempotency-Key, the replay mark, 409 and 422 on every write, and how long a key lives', () => {
    const writes = ROUTES.filter((entry) => entry.method !== 'GET');
    expect(writes.length).toBeGreaterThan(20);
    for (const entry of writes) {
      const operation = real.paths[entry.path][entry.method.toLowerCase()];
      const where = entry.operationId;
      const key = operation.parameters.find((parameter: Json) => parameter.name === 'Idempotency-Key');
      expect(key, where).toMatchObject({ in: 'header', required: false });
      expect(key.description, where).toContain('24 hours');
      expect(key.schema, where).toMatchObject({ minLength: 1, maxLength: 255 });
      const success = operation.responses[String(CONTRACTS[entry.operationId]?.successStatus ?? 200)];
      expect(success.headers['idempotent-replayed'], where).toEqual({
        $ref: '#/components/headers/IdempotentReplayed',
      });
      expect(operation.responses['409']['x-error-codes'], where).toContain('request_in_progress');
      expect(operation.responses['409'].headers['retry-after'], where).toBeDefined();
      expect(operation.responses['422']['x-error-codes'], where).toContain('idempotency_key_reused');
      expect(operation.responses['503'].headers['retry-after'], where).toBeDefined();
    }
  });

  it('documents If-None-Match, ETag and 304 on every read', () => {
    const reads = ROUTES.filter((entry) => entry.method === 'GET');
    for (const entry of reads) {
      const operation = real.paths[entry.path].get;
      expect(
        operation.parameters.find((parameter: Json) => parameter.name === 'If-None-Match'),
        entry.operationId,
      ).toMatchObject({ in: 'header', required: false });
      expect(operation.responses['200'].headers.etag, entry.operationId).toEqual({
        $ref: '#/components/headers/ETag',
      });
      expect(operation.responses['304'], entry.operationId).toEqual({
        $ref: '#/components/responses/NotModified',
      });
      expect(operation.responses['409'], entry.operationId).toBeUndefined();
    }
    expect(real.components.responses.NotModified.headers.etag).toEqual({ $ref: '#/components/headers/ETag' });
  });
});
