import type { Operation, OperationInput, OperationResponse } from '../contracts/operation.ts';
import { type AuthenticatedContext, authenticatedHandler } from './handler.ts';
import { isMultipartRequest, parseMultipart } from './multipart.ts';
import { writeIdempotency } from './write-handler.ts';

/**
 * The handler factory for authenticated routes that take `multipart/form-data` (uploads): `httpHandler` of
 * shared/http/write-handler.ts (uploads are writes, replayed by `Idempotency-Key`) plus the multipart parser. A
 * separate module so busboy reaches only these functions' bundles; entry files use it like the plain factory.
 */
export function httpHandler<O extends Operation>(
  operation: O,
  useCase: (input: OperationInput<O>, context: AuthenticatedContext) => Promise<OperationResponse<O>>,
) {
  return authenticatedHandler(
    operation,
    useCase,
    async ({ body, isBase64Encoded, contentType }) =>
      isMultipartRequest(contentType) ? parseMultipart(body, isBase64Encoded, contentType) : undefined,
    writeIdempotency,
  );
}
