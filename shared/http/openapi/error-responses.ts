import { bareErrorBodySchema, errorBodySchema } from '../../contracts/envelopes.ts';
import type { ErrorEnvelope } from '../../contracts/operation.ts';
import { HEADER_REFS } from './components.ts';
import { type JsonObject, toSchema } from './schema.ts';

/** One error code an operation may answer with a status, and when. */
export interface ErrorCode {
  readonly code: string;
  readonly description: string;
}

/** An error response of one status: the shared envelope narrowed to the codes this operation answers with it. */
export function errorResponse(
  status: number,
  codes: readonly ErrorCode[],
  envelope: ErrorEnvelope,
  authenticated: boolean,
  schemas: Record<string, JsonObject>,
): JsonObject {
  const body = toSchema(envelope === 'bare' ? bareErrorBodySchema : errorBodySchema, schemas, 'error');
  // The shared envelope, narrowed to the codes this status can carry for this operation.
  const schema = {
    allOf: [
      body,
      {
        type: 'object',
        properties: { code: { type: 'string', enum: codes.map((entry) => entry.code) } },
        required: ['code'],
      },
    ],
  };
  const headers: JsonObject = { 'x-request-id': HEADER_REFS.requestId };
  // 401s are rendered before the caller is known, so they never carry `cache-control`.
  if (authenticated && status !== 401) headers['cache-control'] = HEADER_REFS.cacheControl;
  if (codes.some((entry) => entry.code === 'invalid_credentials'))
    headers['www-authenticate'] = HEADER_REFS.wwwAuthenticate;
  if (status === 429 || status === 503 || codes.some((entry) => entry.code === 'request_in_progress'))
    headers['retry-after'] = { $ref: '#/components/headers/RetryAfter' };
  return {
    description: codes.map((entry) => `\`${entry.code}\`: ${entry.description}`).join('\n\n'),
    'x-error-codes': codes.map((entry) => entry.code),
    headers,
    content: { 'application/json': { schema } },
  };
}
