import type { AccessLevel, RouteEntry } from '../../catalogue/index.ts';
import type { Operation } from '../../contracts/operation.ts';
import { AUTHENTICATED_SECURITY, HEADER_REFS } from './components.ts';
import { ACCESS_DESCRIPTIONS } from './description.ts';
import { type ErrorCode, errorResponse } from './error-responses.ts';
import { withGatewayStatuses } from './gateway-answers.ts';
import { parametersOf, requestBodyOf } from './request.ts';
import {
  idempotencyErrors,
  isWrite,
  retrySafetyParameter,
  retrySafetySuccessHeaders,
} from './retry-safety.ts';
import { type JsonObject, toSchema } from './schema.ts';

/**
 * One operation of the document: the contract's parameters, body and success response, its own errors and the
 * errors every route of its shape shares (document.ts lists them), and the statuses the gateway may answer.
 */
export function describeOperation(
  route: RouteEntry,
  operation: Operation,
  schemas: Record<string, JsonObject>,
): JsonObject {
  const prefix = operation.operationId;
  const authenticated = route.access !== 'public';
  // Multipart operations take their fields as JSON too (see request.ts), so JSON's refusals apply to them as well.
  const jsonBody = operation.body !== undefined;
  // A route without a body still judges one sent to it, except GET (shared/http/body-parsers.ts `noBodyParser`).
  const judgesBody = route.method !== 'GET';
  const hasInputs =
    operation.params !== undefined || operation.query !== undefined || operation.body !== undefined;

  const parameters = [
    ...parametersOf(operation.params, 'path', schemas, prefix),
    ...parametersOf(operation.query, 'query', schemas, prefix),
    // Writes take `Idempotency-Key` (authenticated ones: keys are the caller's), reads `If-None-Match`.
    ...(isWrite(route.method) && !authenticated ? [] : [retrySafetyParameter(route.method)]),
  ];

  const described: JsonObject = {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operationDescription(route, operation),
    tags: [...operation.tags],
    security: authenticated ? AUTHENTICATED_SECURITY : [],
    'x-access-level': route.access satisfies AccessLevel,
  };
  if (parameters.length > 0) described.parameters = parameters;
  if (operation.body !== undefined || operation.bodyKind === 'multipart') {
    described.requestBody = requestBodyOf(operation, schemas, prefix);
  }

  // Errors by status: the contract's own, then the shared ones derived from the route's shape.
  const errors = new Map<number, Map<string, string[]>>();
  const addError = (status: number, code: string, description: string) => {
    const byCode = errors.get(status) ?? new Map<string, string[]>();
    errors.set(status, byCode);
    const descriptions = byCode.get(code) ?? [];
    if (!descriptions.includes(description)) descriptions.push(description);
    byCode.set(code, descriptions);
  };
  for (const error of operation.errors) addError(error.status, error.code, error.description);
  if (hasInputs) {
    addError(
      400,
      'rest_missing_callback_param',
      'A required parameter is missing; `data.params` lists the names.',
    );
    addError(
      400,
      'rest_invalid_param',
      'A parameter is invalid; `data.params` maps each name (dotted for nested fields) to a message.',
    );
  }
  if (jsonBody) {
    addError(400, 'rest_invalid_json', 'The body is not valid JSON.');
    addError(
      415,
      'rest_unsupported_media_type',
      'A body was sent with another `Content-Type` than `application/json`.',
    );
  } else if (judgesBody) {
    addError(
      400,
      'rest_invalid_param',
      'This route takes no body: any field sent is refused (`data.params`).',
    );
    addError(400, 'rest_invalid_json', 'A body was sent that is not valid JSON.');
    addError(
      415,
      'rest_unsupported_media_type',
      'A body was sent with another `Content-Type` than `application/json`.',
    );
  }
  if (authenticated) {
    addError(401, 'rest_not_logged_in', 'No `Authorization` header.');
    addError(
      401,
      'invalid_credentials',
      'Wrong user name or password, revoked credentials, unknown scheme or malformed header.',
    );
    addError(403, 'rest_forbidden', 'The account is suspended or banned ("Your account is not active.").');
    addError(
      503,
      'service_unavailable',
      'The credentials could not be checked (a store is unreachable); nothing was done. Try again.',
    );
    if (isWrite(route.method)) {
      idempotencyErrors(addError);
      addError(503, 'service_unavailable', 'The `Idempotency-Key` store could not be read or written.');
    }
  }
  addError(500, 'internal_error', 'An unexpected failure (logged, never detailed).');

  const successStatus = operation.successStatus ?? 200;
  const responses: JsonObject = {
    [String(successStatus)]: {
      description: operation.summary,
      headers: {
        ...successHeaders(authenticated),
        ...(isWrite(route.method) && !authenticated ? {} : retrySafetySuccessHeaders(route.method)),
      },
      content: {
        [successMediaType(operation)]: {
          schema: toSchema(operation.response, schemas, `${prefix}_response`),
        },
      },
    },
  };
  const envelope = operation.errorEnvelope ?? 'standard';
  for (const status of [...errors.keys()].sort((a, b) => a - b)) {
    const codes = [...(errors.get(status) ?? new Map()).entries()].map(
      ([code, descriptions]): ErrorCode => ({ code, description: descriptions.join(' Also: ') }),
    );
    responses[String(status)] = errorResponse(status, codes, envelope, authenticated, schemas);
  }
  if (!isWrite(route.method)) responses['304'] = { $ref: '#/components/responses/NotModified' };
  described.responses = withGatewayStatuses(responses);
  return described;
}

/** `application/json`, or the type/subtype of an operation's text response (`text/html`). */
function successMediaType(operation: Operation): string {
  return operation.textResponse?.contentType.split(';')[0]?.trim() ?? 'application/json';
}

function successHeaders(authenticated: boolean): JsonObject {
  return authenticated
    ? { 'x-request-id': HEADER_REFS.requestId, 'cache-control': HEADER_REFS.cacheControl }
    : { 'x-request-id': HEADER_REFS.requestId };
}

/** The contract's description (or its summary), then what the route's access level requires. */
function operationDescription(route: RouteEntry, operation: Operation): string {
  const own = operation.description ?? `${operation.summary}.`;
  return `${own}\n\nAccess: ${ACCESS_DESCRIPTIONS[route.access]}`;
}
