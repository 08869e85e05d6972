import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorEnvelope } from '../contracts/operation.ts';
import type { AppError } from '../errors/app-error.ts';

/**
 * Every response carries these (decisions.md, "Web clients"): JSON content type, nosniff, the gateway's request
 * id, and `cache-control: no-store` when the caller was authenticated. CORS headers are the gateway's job.
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
      ...(authenticated ? { 'cache-control': 'no-store' } : {}),
      ...extraHeaders,
    },
    body: JSON.stringify(body),
  };
}

/** The contract's error bodies: `{ code, message, data: { status, … } }`, or `{ code, message }` (quiz, migration). */
export function errorBody(error: AppError, envelope: ErrorEnvelope = 'standard'): Record<string, unknown> {
  if (envelope === 'bare') {
    const details = error.data.details;
    return { code: error.code, message: error.message, ...(details ? { details } : {}) };
  }
  return { code: error.code, message: error.message, data: { status: error.status, ...error.data } };
}
