import { createHash } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import {
  COMPLETED,
  claimIdempotencyKey,
  completeIdempotencyKey,
  IN_PROGRESS,
  type IdempotencyRecord,
  idempotencyPayloadHash,
  idempotencyRecordKeyOf,
  releaseIdempotencyKey,
} from '../db/idempotency-store.ts';
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
 * `Idempotency-Key` on writes (issue 24), on the replay store of shared/db/idempotency-store.ts (plain conditional
 * writes on the one table). The first request with a key claims it (a record `INPROGRESS`) and runs; a repeat by
 * the same caller with the same method, path and body within 24 hours gets the first response again (status, body,
 * headers) marked `Idempotent-Replayed: true`, without running:
 * - the key is the caller's: the hashed key names the caller, and so do the record's partition and sort key;
 * - "same key, another request" (another payload hash) is 422 `idempotency_key_reused`, whatever the record's state;
 * - a repeat while the first runs is 409 `request_in_progress` with `Retry-After`;
 * - a 5xx (or a 429, which says "try later") is not kept: the record is deleted, so a retry runs;
 * - replays carry the current request id (the gateway's id of this request, not of the first);
 * - the store failing is 503 `service_unavailable`: before the run, nothing ran; after it, the key stays claimed
 *   until its in-progress expiry (the function's time limit), so a retry then runs or replays.
 * (Until issue 21's item 21 this was Powertools' idempotency utility, ~42 KB in every write function; the record
 * layout and the answers are unchanged.)
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

const storable = (result: HttpResult): boolean => {
  const status = result.statusCode ?? 200;
  return status < 500 && status !== 429;
};

/** A claim refused by a record that expired meanwhile is tried again, this many times at most. */
const CLAIM_ATTEMPTS = 3;

/** Runs `execute` once per key of this caller; `execute` renders every answer the client may see (errors too). */
export async function runIdempotent(
  request: IdempotentRequest,
  execute: () => Promise<HttpResult>,
): Promise<HttpResult> {
  const recordKey = idempotencyRecordKeyOf(request.callerId, `${request.callerId}:${request.key}`);
  const payloadHash = idempotencyPayloadHash({
    method: request.method,
    path: request.path,
    body: createHash('sha256')
      .update(request.rawBody ?? '')
      .digest('base64'),
  });
  const expiresAtEpoch = () => Math.round(Date.now() / 1000 + IDEMPOTENCY_KEY_LIFETIME_SECONDS);
  for (let attempt = 1; ; attempt++) {
    const now = Date.now();
    const remainingMs = request.context.getRemainingTimeInMillis();
    const existing = await store(() =>
      claimIdempotencyKey(
        recordKey,
        {
          payloadHash,
          expiresAtEpoch: expiresAtEpoch(),
          inProgressExpiry: remainingMs > 0 ? now + remainingMs : undefined,
        },
        now,
      ),
    );
    if (existing === undefined) break;
    const answer = answerOf(existing, payloadHash, request.requestId);
    if (answer !== 'expired') return answer;
    // Expired between the write's condition and now: claim again (it will take the record over).
    if (attempt >= CLAIM_ATTEMPTS) throw storeUnavailable(new Error('idempotency record keeps expiring'));
  }

  let result: HttpResult;
  try {
    result = await execute();
  } catch (error) {
    await store(() => releaseIdempotencyKey(recordKey));
    throw error;
  }
  // Stored as a DynamoDB map, and answered as stored: plain JSON only (no undefined members).
  const answered = JSON.parse(JSON.stringify(result)) as HttpResult;
  if (!storable(answered)) {
    await store(() => releaseIdempotencyKey(recordKey));
    return result;
  }
  await store(() =>
    completeIdempotencyKey(recordKey, { payloadHash, expiresAtEpoch: expiresAtEpoch(), response: answered }),
  );
  return answered;
}

/** What a refused claim answers: the replay, or the contract's error; 'expired' when the record no longer counts. */
function answerOf(
  existing: IdempotencyRecord,
  payloadHash: string,
  requestId: string,
): HttpResult | 'expired' {
  if (existing.payloadHash !== payloadHash) {
    throw new AppError(
      'idempotency_key_reused',
      422,
      'This Idempotency-Key was already used with another request (method, path or body).',
    );
  }
  if (existing.expiresAtEpoch !== undefined && Date.now() / 1000 > existing.expiresAtEpoch) return 'expired';
  if (existing.status === IN_PROGRESS) {
    throw new AppError(
      'request_in_progress',
      409,
      'A request with this Idempotency-Key is still in progress. Try again shortly.',
      {},
      { retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS },
    );
  }
  if (existing.status !== COMPLETED || typeof existing.response !== 'object' || existing.response === null) {
    throw storeUnavailable(new Error(`idempotency record in an unknown state: ${String(existing.status)}`));
  }
  return replayed(existing.response as HttpResult, requestId);
}

/** A replay: the first answer, with this request's id and the replay mark. */
function replayed(response: HttpResult, requestId: string): HttpResult {
  return {
    ...response,
    headers: { ...response.headers, 'x-request-id': requestId, [REPLAYED_HEADER]: 'true' },
  };
}

/** A call to the replay store; its failure is the 503 of an unavailable service. */
async function store<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeUnavailable(error);
  }
}

function storeUnavailable(error: unknown): AppError {
  logger.error('idempotency store failed', { error });
  return new AppError(
    'service_unavailable',
    503,
    'The service is temporarily unavailable. Try again.',
    {},
    { retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS },
  );
}
