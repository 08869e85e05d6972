import { createHash } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { JSONValue } from '@aws-lambda-powertools/commons/types';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { idempotencyStore } from '../db/idempotency-store.ts';
import { AppError } from '../errors/app-error.ts';
import { logger } from '../observability/logger.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_LIFETIME_SECONDS,
  IN_PROGRESS_RETRY_AFTER_SECONDS,
  REPLAYED_HEADER,
  VALID_IDEMPOTENCY_KEY,
} from './idempotency-rules.ts';

type HttpResult = APIGatewayProxyStructuredResultV2;

/**
 * `Idempotency-Key` on writes (issue 24), with Powertools' idempotency utility and its DynamoDB persistence on the
 * one table (shared/db/idempotency-store.ts). The first request with a key runs; a repeat by the same caller with
 * the same method, path and body within 24 hours gets the first response again (status, body, headers) marked
 * `Idempotent-Replayed: true`, without running. What Powertools cannot say by itself is wrapped here:
 * - the key is the caller's: the hashed payload names the caller, and so do the record's partition and prefix;
 * - "same key, another request" is Powertools' payload validation, answered 422 `idempotency_key_reused`;
 * - a repeat while the first runs is Powertools' in-progress error, answered 409 `request_in_progress`;
 * - a 5xx (or a 429, which says "try later") must not be kept, so a retry runs: Powertools keeps whatever the
 *   function returns and forgets only what throws, so such an answer is thrown past it and returned after;
 * - replays carry the current request id (the gateway's id of this request, not of the first).
 */
const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);

/**
 * The client's key of a write request, or undefined when none was sent (or the method is not a write: reads are
 * idempotent already). A malformed key is the contract's validation error, never silently ignored.
 */
export function idempotencyKeyOf(
  method: string,
  headers: Readonly<Record<string, string | undefined>> | undefined,
): string | undefined {
  if (!WRITE_METHODS.has(method)) return undefined;
  const value = headers?.[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (!VALID_IDEMPOTENCY_KEY.test(value)) {
    throw new AppError('rest_invalid_param', 400, 'Invalid parameter(s): Idempotency-Key', {
      params: { 'Idempotency-Key': 'must be 1 to 255 visible ASCII characters' },
    });
  }
  return value;
}

export interface IdempotentRequest {
  readonly callerId: number;
  readonly key: string;
  readonly method: string;
  /** Path and query string as sent. */
  readonly path: string;
  /** The body as received (before parsing), so "the same body" means the same bytes. */
  readonly rawBody: string | undefined;
  readonly requestId: string;
  readonly context: Context;
}

/** An answer that must not be remembered (5xx, 429), carried past Powertools so it forgets the key. */
class UnstoredAnswer extends Error {
  readonly result: HttpResult;
  constructor(result: HttpResult) {
    super('answer not stored');
    this.result = result;
  }
}

const storable = (result: HttpResult): boolean => {
  const status = result.statusCode ?? 200;
  return status < 500 && status !== 429;
};

/** Runs `execute` once per key of this caller; `execute` renders every answer the client may see (errors too). */
export async function runIdempotent(
  request: IdempotentRequest,
  execute: () => Promise<HttpResult>,
): Promise<HttpResult> {
  const { persistenceStore, keyPrefix } = idempotencyStore(request.callerId);
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'request',
    throwOnNoIdempotencyKey: true,
    expiresAfterSeconds: IDEMPOTENCY_KEY_LIFETIME_SECONDS,
    // The stored response is the JSON of the HttpResult `execute` answered; the replay goes back as JSON too.
    responseHook: (response) => asJson(replayed(response as HttpResult, request.requestId)),
  });
  const payload = {
    key: `${request.callerId}:${request.key}`,
    request: {
      method: request.method,
      path: request.path,
      body: createHash('sha256')
        .update(request.rawBody ?? '')
        .digest('base64'),
    },
  };
  const once = makeIdempotent(
    async (_payload: typeof payload, _context: Context) => {
      const result = await execute();
      if (!storable(result)) throw new UnstoredAnswer(result);
      // Stored as a DynamoDB map: plain JSON only (no undefined members).
      return JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
    },
    { persistenceStore, config, keyPrefix },
  );
  try {
    return (await once(payload, request.context)) as HttpResult;
  } catch (error) {
    if (error instanceof UnstoredAnswer) return error.result;
    throw answerFor(error);
  }
}

/** An answer as the idempotency store's JSON (its fields are strings, numbers, booleans and string lists). */
const asJson = (result: HttpResult): JSONValue => JSON.parse(JSON.stringify(result));

/** A replay: the first answer, with this request's id and the replay mark. */

function replayed(response: HttpResult, requestId: string): HttpResult {
  return {
    ...response,
    headers: { ...response.headers, 'x-request-id': requestId, [REPLAYED_HEADER]: 'true' },
  };
}

/** What to throw for a failure of the idempotent run: a contract error, or the cause itself. */
function answerFor(error: unknown): unknown {
  if (error instanceof IdempotencyValidationError) {
    return new AppError(
      'idempotency_key_reused',
      422,
      'This Idempotency-Key was already used with another request (method, path or body).',
    );
  }
  if (error instanceof IdempotencyAlreadyInProgressError) {
    return new AppError(
      'request_in_progress',
      409,
      'A request with this Idempotency-Key is still in progress. Try again shortly.',
      {},
      { retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS },
    );
  }
  if (error instanceof Error && error.name.startsWith('Idempotency')) {
    // The replay store could not be read or written. Before the run, nothing ran; after it, the key stays
    // locked until its in-progress expiry (the function's time limit), so a retry then runs or replays.
    logger.error('idempotency store failed', { error });
    return new AppError(
      'service_unavailable',
      503,
      'The service is temporarily unavailable. Try again.',
      {},
      { retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS },
    );
  }
  return error;
}
