import type { JsonObject } from './schema.ts';
import { RETRY_AFTER_HEADER } from './gateway-answers.ts';
import { RETRY_SAFETY_HEADERS } from './retry-safety.ts';

/**
 * The parts of the OpenAPI document every operation shares: how callers authenticate, and the response headers
 * operations reference by `$ref` (components.headers).
 */

export const AUTHENTICATED_SECURITY: Array<Record<string, string[]>> = [
  { basicAuth: [] },
  { bearerAuth: [] },
];

export const SECURITY_SCHEMES: Record<string, JsonObject> = {
  basicAuth: {
    type: 'http',
    scheme: 'basic',
    description: 'User name and application password (24 letters and digits; spaces are ignored).',
  },
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: '<id>.<secret>' },
};

export const SHARED_HEADERS: Record<string, JsonObject> = {
  XRequestId: {
    description: 'The gateway request id (also exposed to CORS clients).',
    schema: { type: 'string' },
  },
  CacheControl: {
    description:
      '`private, no-cache` on every response to an authenticated caller (keep it, revalidate it with its ' +
      '`ETag`; no shared cache stores it); `no-store` on 503 `service_unavailable`.',
    schema: { type: 'string', enum: ['private, no-cache', 'no-store'] },
  },
  ...RETRY_SAFETY_HEADERS,
  RetryAfter: RETRY_AFTER_HEADER,
  WwwAuthenticate: {
    description: 'Sent with `invalid_credentials`.',
    schema: { type: 'string', const: 'Basic realm="community"' },
  },
};

/** References to the shared headers, as operations use them. */
export const HEADER_REFS = {
  requestId: { $ref: '#/components/headers/XRequestId' },
  cacheControl: { $ref: '#/components/headers/CacheControl' },
  wwwAuthenticate: { $ref: '#/components/headers/WwwAuthenticate' },
};
