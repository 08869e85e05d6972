import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorEnvelope, TextResponse } from '../contracts/operation.ts';
import type { AppError } from '../errors/app-error.ts';
import { clip, MAX_ERROR_BODY_BYTES } from './echo-limits.ts';

export const AUTHENTICATED_CACHE_CONTROL = 'private, no-cache';

/**
 * Every response carries these (decisions.md, "Web clients"): JSON content type, nosniff, the gateway's request
 * id, and, when the caller was authenticated, `cache-control: private, no-cache` (issue 24: a client may keep the
 * answer and revalidates it with its `ETag`; no shared cache stores it). CORS headers are the gateway's job.
 */
export function jsonResponse(
  statusCode: number,
  body: unknown,
  requestId: string,
  authenticated: boolean,
  extraHeaders: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
      ...(authenticated ? { 'cache-control': AUTHENTICATED_CACHE_CONTROL } : {}),
      ...extraHeaders,
    },
    body: JSON.stringify(body),
  };
}

/**
 * A success body that is not JSON (an operation's `textResponse`): its own media type and headers, nosniff and
 * the request id like every response. Public only (the reference page): nothing here depends on a caller.
 */
export function textResponse(
  statusCode: number,
  body: string,
  requestId: string,
  format: TextResponse,
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: {
      ...format.headers,
      'content-type': format.contentType,
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    },
    body,
  };
}

/**
 * The contract's error bodies: `{ code, message, data: { status, … } }`, or `{ code, message }` (quiz, migration).
 * Never larger than MAX_ERROR_BODY_BYTES: a body that would be (whatever put the bulk in it) keeps its code and
 * status, a shortened message, and drops the rest of `data`.
 */
export function errorBody(error: AppError, envelope: ErrorEnvelope = 'standard'): Record<string, unknown> {
  const full = fullErrorBody(error, envelope);
  if (Buffer.byteLength(JSON.stringify(full)) <= MAX_ERROR_BODY_BYTES) return full;
  const message = clip(error.message, 500);
  return envelope === 'bare'
    ? { code: error.code, message }
    : { code: error.code, message, data: { status: error.status } };
}

function fullErrorBody(error: AppError, envelope: ErrorEnvelope): Record<string, unknown> {
  if (envelope === 'bare') {
    const details = error.data.details;
    return { code: error.code, message: error.message, ...(details ? { details } : {}) };
  }
  return { code: error.code, message: error.message, data: { status: error.status, ...error.data } };
}
