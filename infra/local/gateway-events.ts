import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import type { MountedRoute } from './mounted-routes.ts';

/** The events the local HTTP gateway (gateway.ts) hands to the functions, as API Gateway builds them. */

export interface EventParts {
  request: IncomingMessage;
  url: URL;
  method: string;
  body: Buffer;
  requestId: string;
  route: MountedRoute;
  pathParameters: Record<string, string>;
}

/** The HTTP API payload-2.0 event, field for field as API Gateway builds it. */
export function buildEvent(parts: EventParts): APIGatewayProxyEventV2 {
  const { request, url, method, body, requestId, route } = parts;
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies.push(...String(value).split(/;\s*/));
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // API Gateway adds these; handlers build absolute links (paginator URLs) from them.
  headers['x-forwarded-proto'] = 'http';
  headers['x-forwarded-for'] = request.socket.remoteAddress ?? '127.0.0.1';
  headers['x-forwarded-port'] = String(request.socket.localPort ?? '');
  const query: Record<string, string> = {};
  for (const key of new Set(url.searchParams.keys())) query[key] = url.searchParams.getAll(key).join(',');
  const contentType = headers['content-type'] ?? '';
  const isText =
    /^(application\/(json|x-www-form-urlencoded)|text\/)/i.test(contentType) || body.length === 0;
  const now = new Date();
  const { routeKey } = route;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(parts.pathParameters).length ? { pathParameters: parts.pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: (headers.host ?? '127').split('.')[0] ?? '127',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

export function authorizerEvent(event: APIGatewayProxyEventV2): APIGatewayRequestAuthorizerEventV2 {
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:us-east-1:000000000000:local/$default/${event.requestContext.http.method}${event.rawPath}`,
    identitySource: [],
    routeKey: event.routeKey,
    rawPath: event.rawPath,
    rawQueryString: event.rawQueryString,
    ...(event.cookies ? { cookies: event.cookies } : {}),
    headers: event.headers,
    ...(event.queryStringParameters ? { queryStringParameters: event.queryStringParameters } : {}),
    requestContext: event.requestContext,
    ...(event.pathParameters ? { pathParameters: event.pathParameters } : {}),
  } as APIGatewayRequestAuthorizerEventV2;
}
