import { API_BASE_PATH } from '../catalogue/types.ts';
import { env } from '../config/env.ts';
import type { Operation } from '../contracts/operation.ts';
import type { HttpEvent, RequestLocation } from './handler.ts';

/**
 * Where a request was addressed, for the links a response carries (paginator B's page URLs): the stage's
 * configured public base URL (never the client's Host or X-Forwarded-* headers), the route as catalogued, and
 * only the query parameters the operation's contract declares.
 */
export function locationOf(event: HttpEvent, operation: Operation): RequestLocation {
  const declared = (operation.query as { entries?: Record<string, unknown> } | undefined)?.entries ?? {};
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (value !== undefined && Object.hasOwn(declared, key)) query[key] = value;
  }
  const base = env().PUBLIC_BASE_URL.replace(/\/+$/, '') || API_BASE_PATH;
  return { url: `${base}${routePath(event)}`, query };
}

/**
 * The route's path under the base, from the matched route key and its path parameters (`/notifications/5/read`),
 * so a link names the route as catalogued whatever spelling the request used. The catch-all has no route key.
 */
function routePath(event: HttpEvent): string {
  const template = /^[A-Z]+ (\/\S*)$/.exec(event.routeKey)?.[1];
  const path =
    template === undefined
      ? event.rawPath
      : template.replace(/\{([^}+]+)(\+?)\}/g, (_match, name: string, greedy: string) => {
          const value = event.pathParameters?.[name] ?? '';
          return greedy ? encodeURI(value) : encodeURIComponent(value);
        });
  return path.startsWith(`${API_BASE_PATH}/`) ? path.slice(API_BASE_PATH.length) : path;
}
