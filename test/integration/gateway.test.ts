import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../shared/catalogue/index.ts';
import { type Gateway, startGateway } from '../../infra/local/gateway.ts';

/** The local API Gateway stand-in, on routes of its own: event shape, limits, timeouts and failures. */
const route = (
  operationId: string,
  method: RouteEntry['method'],
  path: string,
  handler: string,
): RouteEntry => ({
  operationId,
  method,
  path,
  access: 'public',
  entry: `test/support/handlers/${handler}.ts`,
  grants: {},
});

const ROUTES: RouteEntry[] = [
  route('echoItem', 'GET', '/things/{id}', 'echo'),
  route('echoLiteral', 'GET', '/things/special', 'echo'),
  route('echoPost', 'POST', '/things', 'echo'),
  route('slow', 'GET', '/slow', 'slow'),
  route('crash', 'GET', '/crash', 'crash'),
  route('huge', 'GET', '/huge', 'huge'),
];

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({
    port: 0,
    routes: ROUTES,
    integrationTimeoutMs: 500,
    corsOrigins: 'https://app.example',
  });
});
afterAll(() => gateway.close());

const call = (path: string, init?: RequestInit) => fetch(`${gateway.url}${path}`, init);

describe('local gateway', () => {
  it('builds the payload-2.0 event: route key, path parameters, joined multi-value query, headers', async () => {
    const response = await call('/things/42?tag=a&tag=b&empty=', { headers: { 'x-custom': 'yes' } });
    expect(response.status).toBe(200);
    const event = (await response.json()) as APIGatewayProxyEventV2;
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /v2/things/{id}');
    expect(event.rawPath).toBe('/v2/things/42');
    expect(event.pathParameters).toEqual({ id: '42' });
    expect(event.queryStringParameters).toEqual({ tag: 'a,b', empty: '' });
    expect(event.headers['x-custom']).toBe('yes');
    expect(event.headers['x-forwarded-proto']).toBe('http');
    expect(event.requestContext.http.method).toBe('GET');
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event.isBase64Encoded).toBe(false);
  });

  it('prefers a literal segment over a placeholder, as API Gateway does', async () => {
    const event = (await (await call('/things/special')).json()) as APIGatewayProxyEventV2;
    expect(event.routeKey).toBe('GET /v2/things/special');
    expect(event.pathParameters).toBeUndefined();
  });

  it('passes text bodies as is and binary bodies base64-encoded', async () => {
    const text = (await (
      await call('/things', {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as APIGatewayProxyEventV2;
    expect(text.body).toBe('{"a":1}');
    expect(text.isBase64Encoded).toBe(false);

    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]);
    const binary = (await (
      await call('/things', { method: 'POST', body: bytes, headers: { 'content-type': 'image/jpeg' } })
    ).json()) as APIGatewayProxyEventV2;
    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body ?? '', 'base64')).toEqual(bytes);
  });

  it('answers 503 when the integration outlives its timeout', async () => {
    const response = await call('/slow');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: 'Service Unavailable' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers a bare 500 for an unhandled handler error, never its message', async () => {
    const response = await call('/crash');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ message: 'Internal Server Error' });
    expect(text).not.toContain('boom');
  });

  it('refuses a response over the 6 MB Lambda payload limit', async () => {
    const response = await call('/huge');
    expect(response.status).toBe(500);
  });

  it('adds CORS headers for an allowed origin only, and answers preflights itself', async () => {
    const allowed = await call('/things/1', { headers: { origin: 'https://app.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('access-control-expose-headers')).toBe(
      'x-request-id,etag,idempotent-replayed,retry-after',
    );
    const other = await call('/things/1', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();

    const preflight = await call('/things', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('sends unknown paths and methods to the catch-all route', async () => {
    const wrongMethod = await call('/slow', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(404);
    expect(((await wrongMethod.json()) as { code: string }).code).toBe('rest_no_route');
    const outsideBase = await fetch(gateway.url.replace('/v2', '/other'));
    expect(outsideBase.status).toBe(404);
  });
});
