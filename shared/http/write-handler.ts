import type { Operation, OperationInput, OperationResponse } from '../contracts/operation.ts';
import { type AuthenticatedContext, authenticatedHandler, type IdempotencyLayer } from './handler.ts';
import { idempotencyKeyOf, runIdempotent } from './idempotency.ts';

/** Replays of `Idempotency-Key` writes, as the write factories hand it to the shared one. */
export const writeIdempotency: IdempotencyLayer = { keyOf: idempotencyKeyOf, run: runIdempotent };

/**
 * The handler factory for authenticated writes (POST, PUT, DELETE): `httpHandler` of shared/http/handler.ts plus
 * `Idempotency-Key` replays. A separate module so the replay code and its store reach only the bundles of writes;
 * reads never replay. Entry files use it exactly like the plain factory, and
 * test/unit/catalogue.test.ts holds every entry file to the factory of its route's method.
 */
export function httpHandler<O extends Operation>(
  operation: O,
  useCase: (input: OperationInput<O>, context: AuthenticatedContext) => Promise<OperationResponse<O>>,
) {
  return authenticatedHandler(operation, useCase, undefined, writeIdempotency);
}
