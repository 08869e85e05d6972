import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { API_BASE_PATH, LIVE_STAGE, ROUTES, type RouteEntry } from '../../shared/catalogue/index.ts';
import { authorizerEvent, buildEvent } from './gateway-events.ts';
import { attachLiveGateway, type LiveGateway, type LiveGatewayOptions } from './live-gateway.ts';
import { catalogueRoutes, type MountedRoute } from './mounted-routes.ts';
import { createRouteMatcher } from './route-matcher.ts';

export type { GatewayInvocation, GatewayInvoker, MountedRoute } from './mounted-routes.ts';

/**
 * The local stand-in for API Gateway (HTTP API): builds the payload-2.0 event of each request, has the local
 * Lambda runtime run the authorizer and the handler of each route, and enforces the cloud's limits. An adapter, not
 * a framework: the routes come from the catalogue (run in this process, mounted-routes.ts) or, in the bundled mode,
 * from the synthesized API (each function in processes of its own, infra/local/bundled/).
 */

/** API Gateway's request ceiling (HTTP API): 10 MB. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** Lambda's synchronous invocation payload ceiling: 6 MB, for the event as serialized JSON. */
export const MAX_LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;
/** HTTP API's integration timeout. */
export const INTEGRATION_TIMEOUT_MS = 30_000;

type AuthorizerResult = { isAuthorized: boolean; context?: Record<string, unknown> };

export interface GatewayOptions {
  readonly port: number;
  readonly host?: string;
  /** Allowed CORS origins; `*` allows any (the local default). */
  readonly corsOrigins?: string;
  readonly routes?: readonly RouteEntry[];
  /** Routes read from elsewhere (the bundled mode: the synthesized API); overrides `routes`. */
  readonly mounted?: { readonly routes: readonly MountedRoute[]; readonly fallback: MountedRoute };
  readonly integrationTimeoutMs?: number;
  /**
   * Local pages answered before routing (the local stack's stand-ins for a client app's pages, app-pages.ts):
   * true when it answered; false lets the request through to the API, as in the cloud.
   */
  readonly pages?: (request: IncomingMessage, url: URL, response: ServerResponse) => Promise<boolean>;
  /** The live WebSocket API on the same port (`/live`, and its `@connections` management API). */
  readonly live?: LiveGatewayOptions;
}

export interface Gateway {
  readonly url: string;
  readonly server: Server;
  /** `ws://host:port/live`. */
  readonly liveUrl: string;
  readonly live: LiveGateway;
  close(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const mounted = options.mounted ?? catalogueRoutes(options.routes ?? ROUTES);
  const matcher = createRouteMatcher(mounted.routes);
  const timeoutMs = options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS;
  const corsOrigins = (options.corsOrigins ?? '*').split(',').map((origin) => origin.trim());

  // Node refuses request heads over 16 KB before any handler runs, with a bodyless 431; a long query value (a
  // percent-encoded URL to embed) must instead reach the function and get the contract's 400.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      process.stderr.write(`gateway error: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!response.headersSent) send(response, 500, { message: 'Internal Server Error' });
      else response.end();
    });
  });

  const live = attachLiveGateway(server, options.live);

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const requestId = randomUUID();
    const url = new URL(request.url ?? '/', 'http://local');
    const method = (request.method ?? 'GET').toUpperCase();
    const origin = request.headers.origin;
    // The gateway's own answers (413, 503, …) carry the request id too, as every response must.
    const cors = { ...corsHeaders(origin, corsOrigins), 'x-request-id': requestId };

    if (method === 'OPTIONS' && origin && request.headers['access-control-request-method']) {
      // CORS preflight, answered by API Gateway itself from the API's CORS configuration.
      response.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'GET,POST,PUT,DELETE,OPTIONS',
        'access-control-allow-headers':
          'authorization,content-type,x-requested-with,x-request-id,idempotency-key,if-none-match',
        'access-control-max-age': '600',
      });
      response.end();
      return;
    }

    const body = await readBody(request);
    if (body === 'too_large') {
      send(response, 413, { message: 'Request Entity Too Large' }, cors);
      return;
    }

    if (live.handleManagement(request, url, body, response)) return;
    if (await options.pages?.(request, url, response)) return;

    const underBase = url.pathname === API_BASE_PATH || url.pathname.startsWith(`${API_BASE_PATH}/`);
    const routePath = underBase ? url.pathname.slice(API_BASE_PATH.length) || '/' : url.pathname;
    const matched = underBase ? matcher.match(method, routePath).found : undefined;
    const route: MountedRoute = matched?.route ?? mounted.fallback;
    const pathParameters = matched?.pathParameters ?? {};

    const event = buildEvent({ request, url, method, body, requestId, route, pathParameters });
    if (route.authorizer) {
      const authorization = await route.authorizer<AuthorizerResult>(authorizerEvent(event), timeoutMs);
      if (authorization.outcome !== 'ok') {
        // A failed or timed-out authorizer: API Gateway answers a bare 500 / 503 without calling the route.
        if (authorization.outcome === 'error') {
          process.stderr.write(`authorizer error: ${authorization.error.stack}\n`);
        } else if (authorization.outcome === 'throttled') {
          process.stderr.write('authorizer throttled (reserved concurrency)\n');
        }
        const status = authorization.outcome === 'timeout' ? 503 : 500;
        send(
          response,
          status,
          { message: status === 503 ? 'Service Unavailable' : 'Internal Server Error' },
          cors,
        );
        return;
      }
      const decision = authorization.value;
      if (!decision.isAuthorized) {
        send(response, 403, { message: 'Forbidden' }, cors);
        return;
      }
      event.requestContext = {
        ...event.requestContext,
        authorizer: { lambda: decision.context ?? {} },
      } as APIGatewayProxyEventV2['requestContext'];
    }

    const serialized = JSON.stringify(event);
    if (Buffer.byteLength(serialized) > MAX_LAMBDA_PAYLOAD_BYTES) {
      send(response, 413, { message: 'Request Entity Too Large' }, cors);
      return;
    }

    const invocation = await route.invoke<APIGatewayProxyStructuredResultV2>(
      JSON.parse(serialized),
      timeoutMs,
    );
    if (invocation.outcome === 'timeout') {
      send(response, 503, { message: 'Service Unavailable' }, cors);
      return;
    }
    if (invocation.outcome === 'error' || invocation.outcome === 'throttled') {
      // An unhandled Lambda error, or a throttled function: API Gateway answers a bare 500.
      const why =
        invocation.outcome === 'error' ? invocation.error.stack : 'throttled (reserved concurrency)';
      process.stderr.write(`handler error in ${route.name}: ${why}\n`);
      send(response, 500, { message: 'Internal Server Error' }, cors);
      return;
    }
    const result = invocation.value;
    const payload = result.isBase64Encoded
      ? Buffer.from(result.body ?? '', 'base64')
      : Buffer.from(result.body ?? '');
    if (payload.length > MAX_LAMBDA_PAYLOAD_BYTES) {
      send(response, 500, { message: 'Internal Server Error' }, cors);
      return;
    }
    const headers: Record<string, string> = { ...stringHeaders(result.headers), ...cors };
    if ('accessDenied' in invocation && invocation.accessDenied) {
      // Bundled mode: say which AWS calls IAM refused, so a missing grant is named where the failure shows.
      process.stderr.write(`access denied in ${route.name}: ${invocation.accessDenied}\n`);
      headers['x-local-access-denied'] = invocation.accessDenied.replace(/[\r\n]+/g, ' ').slice(0, 2000);
    }
    response.writeHead(result.statusCode ?? 200, headers);
    response.end(payload);
  }

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolvePromise());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}${API_BASE_PATH}`,
    liveUrl: `ws://${options.host ?? '127.0.0.1'}:${port}/${LIVE_STAGE}`,
    server,
    live,
    close: async () => {
      await live.close();
      await new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => resolvePromise());
      });
    },
  };
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too_large'> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolvePromise(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function corsHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> {
  if (!origin) return {};
  if (!allowed.includes('*') && !allowed.includes(origin)) return {};
  return {
    'access-control-allow-origin': allowed.includes('*') ? '*' : origin,
    'access-control-expose-headers': 'x-request-id,etag,idempotent-replayed,retry-after',
    vary: 'origin',
  };
}

function stringHeaders(headers: APIGatewayProxyStructuredResultV2['headers']): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) result[name] = String(value);
  return result;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
