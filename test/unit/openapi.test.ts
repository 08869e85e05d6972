import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteEntry } from '../../shared/catalogue/index.ts';
import { CONTRACTS } from '../../shared/contracts/index.ts';
import { idParam, pageQuery, perPageQuery } from '../../shared/contracts/fields.ts';
import { defineOperation, type Operation } from '../../shared/contracts/operation.ts';
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
  query: v.object({ page: pageQuery(), per_page: perPageQuery(20), flag: v.optional(v.string()) }),
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
      description: 'Creates.',
      tags: ['Things'],
      security: [{ basicAuth: [] }, { bearerAuth: [] }],
      'x-access-level': 'authenticated',
    });
    const parameters = Object.fromEntries(
      post.parameters.map((parameter: Json) => [parameter.name, parameter]),
    );
    expect(parameters.space_id).toMatchObject({ in: 'path', required: true, schema: { type: 'string' } });
    expect(parameters.page).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'string', default: '1' },
    });
    expect(parameters.per_page.description).toMatch(/between 1 and 100/);
    expect(parameters.per_page.schema.default).toBe('20');
    expect(parameters.flag).toMatchObject({ in: 'query', required: false });

    const body = post.requestBody.content['application/json'].schema;
    expect(post.requestBody.required).toBe(true);
    expect(body).toMatchObject({ type: 'object', required: ['title'], additionalProperties: false });
    expect(body.properties.title).toEqual({ type: 'string', maxLength: 192 });
    expect(body.properties.check).toEqual({}); // `custom` cannot be expressed: no constraint, no crash
    expect(JSON.stringify(document)).not.toContain('$schema');

    expect(Object.keys(post.responses)).toEqual(['201', '400', '401', '403', '404', '409', '500', '503']);
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
    expect(codes(post, 503)).toEqual(['service_unavailable']);
    expect(post.responses['503'].headers).toHaveProperty('cache-control');
    expect(post.responses['401'].headers).toHaveProperty('www-authenticate');
    const error = post.responses['409'].content['application/json'].schema;
    expect(error.properties.code).toEqual({ type: 'string', enum: ['duplicate'] });
    expect(error.required).toEqual(['code', 'message', 'data']);
    expect(post.responses['409'].description).toContain('`duplicate`');
  });

  it('uses the bare error envelope where the contract says so', () => {
    const post = op('/quiz', 'post');
    const error = post.responses['404'].content['application/json'].schema;
    expect(error.required).toEqual(['code', 'message']);
    expect(error.properties).not.toHaveProperty('data');
    expect(post.responses['401'].content['application/json'].schema.properties).not.toHaveProperty('data');
    expect(post.requestBody.required).toBe(false);
  });

  it('documents multipart bodies as form data, without rest_invalid_json', () => {
    const post = op('/media/upload', 'post');
    expect(Object.keys(post.requestBody.content)).toEqual(['multipart/form-data']);
    expect(codes(post, 400)).toEqual(['rest_missing_callback_param', 'rest_invalid_param']);
  });

  it('public routes have no security and no automatic 400/401/403', () => {
    const get = op('/spaces/{space_id}/things', 'get');
    expect(get.security).toEqual([]);
    expect(Object.keys(get.responses)).toEqual(['200', '500']);
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
      expect(
        described.responses[String(contract?.successStatus ?? 200)].content['application/json'].schema,
      ).toBeTypeOf('object');
    }
    JSON.parse(JSON.stringify(real));
  });
});
