import { API_BASE_PATH, type AccessLevel, ROUTES, type RouteEntry } from '../../catalogue/index.ts';
import { bareErrorBodySchema, errorBodySchema } from '../../contracts/envelopes.ts';
import { CONTRACTS } from '../../contracts/index.ts';
import type { ErrorEnvelope, Operation } from '../../contracts/operation.ts';
import { ACCESS_DESCRIPTIONS, API_DESCRIPTION, TAG_DESCRIPTIONS } from './description.ts';
import { parametersOf, requestBodyOf } from './request.ts';
import {
  GATEWAY_ERROR_SCHEMA,
  gatewayResponseComponents,
  gatewayResponseIndex,
  RETRY_AFTER_HEADER,
  withGatewayStatuses,
} from './gateway-answers.ts';
import {
  idempotencyErrors,
  isWrite,
  NOT_MODIFIED_RESPONSE,
  RETRY_SAFETY_HEADERS,
  retrySafetyParameter,
  retrySafetySuccessHeaders,
} from './retry-safety.ts';
import { type JsonObject, toSchema } from './schema.ts';

/**
 * The OpenAPI 3.1 document, generated from the route catalogue (method, path, access level) and the operation
 * contracts (schemas, documented errors). Nothing is written by hand per operation: what the contract says is
 * what the document says. Errors every operation shares are added from the route's shape:
 * - authenticated routes: 401 `rest_not_logged_in` / `invalid_credentials`, 403 `rest_forbidden` (inactive account),
 *   503 `service_unavailable` (the authorizer could not read its stores);
 * - routes with path, query or body inputs: 400 `rest_missing_callback_param` / `rest_invalid_param`, plus
 *   `rest_invalid_json` and 415 `rest_unsupported_media_type` when the body is JSON; a route other than GET that
 *   takes no body refuses one that is sent: 400 `rest_invalid_param` / `rest_invalid_json`, 415;
 * - every route: 500 `internal_error`; and the statuses the gateway may answer by itself (413, 429 with
 *   `Retry-After`, 500, 503), whose `GatewayError` bodies are documented apart (gateway-answers.ts), so every
 *   operation's error bodies carry a readable `code`.
 * Shared shapes (envelopes, paginators, resources marked `named` in the contracts) are components under
 * `components.schemas`, referenced with `$ref`. Every operation has a description: the contract's, or its summary,
 * followed by what its access level requires.
 */

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string; description: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, JsonObject>>;
  components: {
    securitySchemes: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    schemas: Record<string, JsonObject>;
  };
  'x-gateway-responses': JsonObject;
};

interface ErrorCode {
  readonly code: string;
  readonly description: string;
}

const AUTHENTICATED_SECURITY: Array<Record<string, string[]>> = [{ basicAuth: [] }, { bearerAuth: [] }];

const HEADER_REFS = {
  requestId: { $ref: '#/components/headers/XRequestId' },
  cacheControl: { $ref: '#/components/headers/CacheControl' },
  wwwAuthenticate: { $ref: '#/components/headers/WwwAuthenticate' },
};

export function buildOpenApiDocument(
  routes: readonly RouteEntry[] = ROUTES,
  contracts: Readonly<Record<string, Operation>> = CONTRACTS,
): OpenApiDocument {
  const schemas: Record<string, JsonObject> = { GatewayError: GATEWAY_ERROR_SCHEMA };
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();

  for (const route of routes) {
    const operation = contracts[route.operationId];
    if (!operation) throw new Error(`No contract for catalogued operation "${route.operationId}"`);
    for (const tag of operation.tags) tags.add(tag);
    const pathItem = paths[route.path] ?? {};
    paths[route.path] = pathItem;
    pathItem[route.method.toLowerCase()] = describeOperation(route, operation, schemas);
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Community platform API', version: '2', description: API_DESCRIPTION },
    servers: [{ url: API_BASE_PATH, description: 'Relative to the origin the document was fetched from' }],
    tags: [...tags]
      .sort()
      .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations of the ${name} area.` })),
    security: AUTHENTICATED_SECURITY,
    paths,
    components: {
      securitySchemes: {
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description: 'User name and application password (24 letters and digits; spaces are ignored).',
        },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: '<id>.<secret>' },
      },
      headers: {
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
      },
      responses: { ...gatewayResponseComponents(), NotModified: NOT_MODIFIED_RESPONSE },
      schemas,
    },
    'x-gateway-responses': gatewayResponseIndex(),
  };
}

let memoized: OpenApiDocument | undefined;

/** The document of this deployment, built once per process. */
export function openApiDocument(): OpenApiDocument {
  memoized ??= buildOpenApiDocument();
  return memoized;
}

function describeOperation(
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

function errorResponse(
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

/** The contract's description (or its summary), then what the route's access level requires. */
function operationDescription(route: RouteEntry, operation: Operation): string {
  const own = operation.description ?? `${operation.summary}.`;
  return `${own}\n\nAccess: ${ACCESS_DESCRIPTIONS[route.access]}`;
}
