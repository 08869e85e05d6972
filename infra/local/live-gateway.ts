import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { LIVE_AUTHORIZER, LIVE_ROUTES, LIVE_STAGE, type LiveRouteKey } from '../../shared/catalogue/index.ts';
import { invokeFunction, type LocalFunction } from './lambda-runtime.ts';

/**
 * The local stand-in for the live API (API Gateway WebSocket) on the HTTP gateway's port: `ws://…/live` runs the
 * catalogue's `$connect` authorizer and routes (infra/local/live-gateway.ts ↔ shared/catalogue/live.ts), and
 * `POST|GET|DELETE /live/@connections/{id}` is the management API the functions post to, at the endpoint their
 * environment names (`LIVE_CONNECTIONS_ENDPOINT`), answering `410 GoneException` for an unknown connection as the
 * cloud does. Requests to the management API are not signature-checked here.
 */

/** API Gateway closes a connection after 10 minutes without a message or ping frame. */
export const LIVE_IDLE_MS = 10 * 60 * 1000;
/** API Gateway's ceiling for one WebSocket message (the `$default` route refuses far smaller ones itself). */
const MAX_MESSAGE_BYTES = 128 * 1024;
const INVOKE_WAIT_MS = 29_000;
const PATH = `/${LIVE_STAGE}`;
const MANAGEMENT_PREFIX = `${PATH}/@connections/`;

export interface LiveGatewayOptions {
  /** Idle close after this long without a message or ping (tests shorten it). */
  readonly idleMs?: number;
}

export interface LiveGateway {
  /** Answers a management API request; false when the request is not one. */
  handleManagement(request: IncomingMessage, url: URL, body: Buffer, response: ServerResponse): boolean;
  /** Open connections (tests and the start banner). */
  readonly connectionCount: () => number;
  /** Closes every connection and waits for the routes still running (their `$disconnect`s). */
  close(): Promise<void>;
}

interface Connection {
  readonly id: string;
  readonly socket: WebSocket;
  readonly userId: number | string;
  readonly connectedAt: number;
  idle?: NodeJS.Timeout;
}

const functionOf = (routeKey: LiveRouteKey): LocalFunction => {
  const route = LIVE_ROUTES.find((candidate) => candidate.routeKey === routeKey);
  if (!route) throw new Error(`no live route ${routeKey}`);
  return { id: `live${routeKey.replace('$', '-')}`, entry: route.entry };
};
const AUTHORIZER: LocalFunction = {
  id: 'live-authorizer',
  entry: LIVE_AUTHORIZER.entry,
  timeoutSeconds: LIVE_AUTHORIZER.timeoutSeconds,
};

export function attachLiveGateway(server: Server, options: LiveGatewayOptions = {}): LiveGateway {
  const idleMs = options.idleMs ?? LIVE_IDLE_MS;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const connections = new Map<string, Connection>();
  /** Route invocations in flight, so closing waits for them (a `$disconnect` after the table is gone fails). */
  const running = new Set<Promise<unknown>>();

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://local');
    if (url.pathname !== PATH && url.pathname !== `${PATH}/`) return refuse(socket, 404, 'Not Found');
    upgrade(request, url, socket, head).catch((error: unknown) => {
      process.stderr.write(`live gateway error: ${error instanceof Error ? error.stack : String(error)}\n`);
      refuse(socket, 500, 'Internal Server Error');
    });
  });

  async function upgrade(request: IncomingMessage, url: URL, socket: Duplex, head: Buffer) {
    const connectionId = randomBytes(12).toString('base64url');
    const headers = headersOf(request);
    const query = Object.fromEntries(url.searchParams);
    const authorization = await invokeFunction<unknown, AuthorizerAnswer>(
      AUTHORIZER,
      {
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:us-east-1:000000000000:local/${LIVE_STAGE}/$connect`,
        headers,
        queryStringParameters: query,
        requestContext: requestContext('$connect', 'CONNECT', connectionId, undefined),
      },
      { waitMs: INVOKE_WAIT_MS },
    );
    if (authorization.outcome !== 'ok') return refuse(socket, 500, 'Internal Server Error');
    const allowed = authorization.value.policyDocument.Statement.every((s) => s.Effect === 'Allow');
    if (!allowed) return refuse(socket, 403, 'Forbidden');
    const authorizer = authorization.value.context ?? {};
    const connected = await invokeRoute('$connect', connectionId, authorizer, {
      headers,
      queryStringParameters: query,
    });
    if (!isSuccess(connected)) return refuse(socket, 403, 'Forbidden');
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const connection: Connection = {
        id: connectionId,
        socket: ws,
        userId: authorizer.userId as number,
        connectedAt: Date.now(),
      };
      connections.set(connectionId, connection);
      touch(connection);
      ws.on('ping', () => touch(connection));
      ws.on('message', (data, isBinary) => {
        touch(connection);
        const body = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
        void invokeRoute('$default', connectionId, authorizer, {
          body: isBinary ? body.toString('base64') : body.toString('utf8'),
          isBase64Encoded: isBinary,
        }).then((answer) => {
          if (isSuccess(answer) && typeof answer?.body === 'string' && ws.readyState === ws.OPEN)
            ws.send(answer.body);
        });
      });
      ws.on('close', () => {
        clearTimeout(connection.idle);
        connections.delete(connectionId);
        void invokeRoute('$disconnect', connectionId, authorizer, {});
      });
    });
  }

  function touch(connection: Connection) {
    clearTimeout(connection.idle);
    connection.idle = setTimeout(() => connection.socket.close(1001, 'Going away'), idleMs);
    connection.idle.unref();
  }

  async function invokeRoute(
    routeKey: LiveRouteKey,
    connectionId: string,
    authorizer: Record<string, unknown>,
    extra: Record<string, unknown>,
  ): Promise<RouteAnswer | undefined> {
    const eventType =
      routeKey === '$connect' ? 'CONNECT' : routeKey === '$disconnect' ? 'DISCONNECT' : 'MESSAGE';
    const pending = invokeFunction<unknown, RouteAnswer>(
      functionOf(routeKey),
      { ...extra, requestContext: requestContext(routeKey, eventType, connectionId, authorizer) },
      { waitMs: INVOKE_WAIT_MS },
    );
    running.add(pending);
    const invocation = await pending.finally(() => running.delete(pending));
    if (invocation.outcome === 'ok') return invocation.value;
    const why = invocation.outcome === 'error' ? invocation.error.stack : invocation.outcome;
    process.stderr.write(`live ${routeKey} failed: ${why}\n`);
    return undefined;
  }

  return {
    handleManagement(request, url, body, response) {
      if (!url.pathname.startsWith(MANAGEMENT_PREFIX)) return false;
      const id = decodeURIComponent(url.pathname.slice(MANAGEMENT_PREFIX.length));
      const connection = connections.get(id);
      const method = (request.method ?? 'GET').toUpperCase();
      if (!connection || connection.socket.readyState !== connection.socket.OPEN) {
        response.writeHead(410, { 'content-type': 'application/json', 'x-amzn-errortype': 'GoneException' });
        response.end(JSON.stringify({ message: 'Gone' }));
      } else if (method === 'POST') {
        if (body.length > MAX_MESSAGE_BYTES) {
          response.writeHead(413, {
            'content-type': 'application/json',
            'x-amzn-errortype': 'PayloadTooLargeException',
          });
          response.end(JSON.stringify({ message: 'Payload too large' }));
          return true;
        }
        connection.socket.send(body.toString('utf8'));
        response.writeHead(200).end();
      } else if (method === 'DELETE') {
        connection.socket.close(1001, 'Going away');
        response.writeHead(204).end();
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ connectedAt: new Date(connection.connectedAt).toISOString(), identity: {} }),
        );
      }
      return true;
    },
    connectionCount: () => connections.size,
    async close() {
      // A terminated socket emits `close` (and so starts its `$disconnect`) once its TCP socket is gone.
      const closed = [...connections.values()].map((connection) => {
        clearTimeout(connection.idle);
        const done = new Promise((resolvePromise) => connection.socket.once('close', resolvePromise));
        connection.socket.terminate();
        return done;
      });
      sockets.close();
      await Promise.all(closed);
      await Promise.allSettled([...running]);
    },
  };
}

type AuthorizerAnswer = {
  policyDocument: { Statement: Array<{ Effect: string }> };
  context?: Record<string, unknown>;
};
type RouteAnswer = { statusCode?: number; body?: string } | undefined;

const isSuccess = (answer: RouteAnswer): boolean =>
  answer !== undefined && (answer.statusCode ?? 200) >= 200 && (answer.statusCode ?? 200) < 300;

function requestContext(routeKey: string, eventType: string, connectionId: string, authorizer: unknown) {
  const now = Date.now();
  return {
    routeKey,
    eventType,
    connectionId,
    requestId: randomUUID(),
    messageId: randomUUID(),
    extendedRequestId: randomUUID(),
    apiId: 'local',
    stage: LIVE_STAGE,
    domainName: '127.0.0.1',
    connectedAt: now,
    requestTimeEpoch: now,
    requestTime: new Date(now).toUTCString(),
    messageDirection: 'IN',
    ...(authorizer === undefined ? {} : { authorizer }),
  };
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

function refuse(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
