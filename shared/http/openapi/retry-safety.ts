import type { HttpMethod } from '../../catalogue/index.ts';
import { IDEMPOTENCY_KEY_LIFETIME_SECONDS } from '../idempotency-rules.ts';
import type { JsonObject } from './schema.ts';

/**
 * What issue 24 adds to every operation of the document: `Idempotency-Key` and the replay mark on writes (with
 * their 409 and 422), `If-None-Match`, `ETag` and 304 on reads. Components live here, per-operation pieces are
 * functions document.ts calls, so every write and every read says the same thing.
 */
export const isWrite = (method: HttpMethod): boolean => method !== 'GET';

const KEY_HOURS = IDEMPOTENCY_KEY_LIFETIME_SECONDS / 3600;

const RETRY_SAFETY_PARAMETERS = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A key the client chooses for this request (1–255 visible ASCII characters), scoped to the caller and kept ' +
      `${KEY_HOURS} hours. A repeat with the same key, method, path and body answers the first response again ` +
      '(status, body, headers) with `Idempotent-Replayed: true`, without running; with another method, path or body ' +
      'it is 422 `idempotency_key_reused`; while the first is still running, 409 `request_in_progress` with ' +
      '`Retry-After`. A first answer of 5xx or 429 is not kept, so a retry runs.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'The `ETag` of the body the client holds: while it is still current, the answer is 304 with no body.',
    schema: { type: 'string' },
  },
} as const satisfies Record<string, JsonObject>;

export const RETRY_SAFETY_HEADERS: Record<string, JsonObject> = {
  ETag: {
    description:
      'Strong validator of this body (a hash of the exact bytes the caller receives): send it back in ' +
      '`If-None-Match` to revalidate.',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description: '`true` when this is the stored first answer to a request with the same `Idempotency-Key`.',
    schema: { type: 'string', const: 'true' },
  },
};

export const NOT_MODIFIED_RESPONSE: JsonObject = {
  description:
    'Not modified: the `If-None-Match` tag is the current one. No body; the same `ETag` and caching headers.',
  headers: {
    'x-request-id': { $ref: '#/components/headers/XRequestId' },
    etag: { $ref: '#/components/headers/ETag' },
    'cache-control': { $ref: '#/components/headers/CacheControl' },
  },
};

/** The request header parameter of a write or a read (inline: generated clients and readers need no lookup). */
export const retrySafetyParameter = (method: HttpMethod): JsonObject =>
  (isWrite(method)
    ? RETRY_SAFETY_PARAMETERS.IdempotencyKey
    : RETRY_SAFETY_PARAMETERS.IfNoneMatch) as JsonObject;

/** The success header a write or a read adds. */
export const retrySafetySuccessHeaders = (method: HttpMethod): JsonObject =>
  isWrite(method)
    ? { 'idempotent-replayed': { $ref: '#/components/headers/IdempotentReplayed' } }
    : { etag: { $ref: '#/components/headers/ETag' } };

/** The errors an `Idempotency-Key` adds to a write. */
export function idempotencyErrors(add: (status: number, code: string, description: string) => void): void {
  add(400, 'rest_invalid_param', 'An `Idempotency-Key` that is not 1–255 visible ASCII characters.');
  add(
    409,
    'request_in_progress',
    'A request with this `Idempotency-Key` is still running; try again after `Retry-After` seconds.',
  );
  add(
    422,
    'idempotency_key_reused',
    'This `Idempotency-Key` was used by the caller with another method, path or body.',
  );
}
