import middy from '@middy/core';
import type {
  APIGatewayProxyEventV2WithLambdaAuthorizer,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import * as v from 'valibot';
import { env } from '../config/env.ts';
import type { ErrorEnvelope, Operation, OperationInput, OperationResponse } from '../contracts/operation.ts';
import { AppError, isAppError } from '../errors/app-error.ts';
import type { Authentication, Caller } from '../domain/auth/index.ts';
import { beginInvocation, endInvocation } from '../observability/invocation.ts';
import { logger } from '../observability/logger.ts';
import { authenticationFromContext } from './auth-context.ts';
import { type FormParser, formOrJsonBodyParser, jsonBodyParser, noBodyParser } from './body-parsers.ts';
import { withEntityTag } from './conditional-get.ts';
import type { idempotencyKeyOf, runIdempotent } from './idempotency.ts';
import { locationOf } from './request-location.ts';
import { errorBody, jsonResponse, textResponse } from './responses.ts';
import { validatePart } from './validation.ts';

export type HttpEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<Record<string, unknown>>;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** Where the request was addressed, for building links (paginator B's page URLs). */
export interface RequestLocation {
  /**
   * URL of the route without query string, on the stage's configured public base URL (`PUBLIC_BASE_URL`), e.g.
   * `https://api.example.com/v2/notifications`; never built from Host or X-Forwarded-* headers, which the client
   * controls. Without a configured base URL, the path alone (`/v2/notifications`).
   */
  readonly url: string;
  /** The query parameters the operation's contract declares, as sent (unknown ones are not carried into links). */
  readonly query: Readonly<Record<string, string>>;
}

export interface RequestContext {
  readonly requestId: string;
  readonly location: RequestLocation;
}

export interface AuthenticatedContext extends RequestContext {
  readonly caller: Caller;
}

/** What middlewares leave for the handler on `request.internal`. */
type Internal = {
  authentication: Authentication;
  input: { params: unknown; query: unknown; body: unknown };
  /** The body as received, before parsing (what an `Idempotency-Key` replay compares). */
  rawBody: string | undefined;
  /** The write's `Idempotency-Key`, validated; undefined when none was sent. */
  idempotencyKey: string | undefined;
  [key: string]: unknown;
};

/**
 * Middlewares leave their results on the event (middy's convention: the handler receives only the event), under
 * one `internal` key that no API Gateway field uses.
 */
type InternalEvent = HttpEvent & { internal: Internal };
type Request = middy.Request<InternalEvent, HttpResult, Error, Context, Internal>;

/** `Idempotency-Key` replays (idempotency.ts), passed in by the write factories only, so reads never bundle them. */
export interface IdempotencyLayer {
  readonly keyOf: typeof idempotencyKeyOf;
  readonly run: typeof runIdempotent;
}

const INTERNAL_ERROR = new AppError('internal_error', 500, 'An internal error occurred.');
/** The authorizer could not read its stores, so the caller is unknown: nothing is decided, the client retries. */
const SERVICE_UNAVAILABLE = new AppError(
  'service_unavailable',
  503,
  'The service is temporarily unavailable. Try again.',
  {},
  { retryAfterSeconds: 5 },
);

/**
 * The one handler factory for authenticated routes. Every entry file is
 * `export const handler = httpHandler(contract, (input, ctx) => useCase(...))`; everything else lives here:
 * request id and logs, authentication state → 401/403, JSON body parsing, contract validation of path, query and
 * body, response validation (local and tests), `ETag` and 304 on reads (conditional-get.ts), and the error
 * envelope, registered last so it sees every error. This one serves reads (GET); writes (POST, PUT, DELETE) use
 * write-handler.ts's, the same plus `Idempotency-Key` replays (test/unit/catalogue.test.ts holds every entry file
 * to the factory of its method).
 */
export function httpHandler<O extends Operation>(
  operation: O,
  useCase: (input: OperationInput<O>, context: AuthenticatedContext) => Promise<OperationResponse<O>>,
) {
  return authenticatedHandler(operation, useCase, undefined, undefined);
}

export type { FormParser } from './body-parsers.ts';

/** `httpHandler` with a form parser (`bodyKind: 'multipart'`) and the idempotency layer of writes, if any. */
export function authenticatedHandler<O extends Operation>(
  operation: O,
  useCase: (input: OperationInput<O>, context: AuthenticatedContext) => Promise<OperationResponse<O>>,
  formParser: FormParser | undefined,
  idempotency: IdempotencyLayer | undefined,
) {
  return build(operation, true, formParser, idempotency, (input, internal, base) => {
    const authentication = internal.authentication;
    if (authentication.state !== 'authenticated') throw INTERNAL_ERROR; // unreachable: checked before
    return useCase(input, { ...base, caller: authentication.caller });
  });
}

/** The factory for the few routes served without authentication (the OpenAPI document). */
export function publicHttpHandler<O extends Operation>(
  operation: O,
  useCase: (input: OperationInput<O>, context: RequestContext) => Promise<OperationResponse<O>>,
) {
  return build(operation, false, undefined, undefined, (input, _internal, base) => useCase(input, base));
}

function build<O extends Operation>(
  operation: O,
  requiresCaller: boolean,
  formParser: FormParser | undefined,
  idempotency: IdempotencyLayer | undefined,
  run: (input: OperationInput<O>, internal: Internal, base: RequestContext) => Promise<OperationResponse<O>>,
) {
  const envelope = operation.errorEnvelope ?? 'standard';
  const isAuthenticated = (internal: Internal) => internal.authentication?.state === 'authenticated';

  return middy<InternalEvent, HttpResult, Error, Context, Internal>({ timeoutEarlyInMillis: 0 })
    .use({
      // The function's id is its operation id (as CDK names it); the keys stay with this invocation's lines.
      before: function beginObservation(request: Request) {
        request.event.internal = request.internal;
        request.internal.input = { params: undefined, query: undefined, body: undefined };
        request.internal.rawBody = request.event.body;
        request.internal.idempotencyKey = undefined;
        beginInvocation(operation.operationId, request.context, {
          requestId: request.event.requestContext.requestId,
          operationId: operation.operationId,
        });
      },
      after: function endObservation(request: Request) {
        logger.info('request', { status: request.response?.statusCode, route: request.event.routeKey });
        endInvocation(operation.operationId);
      },
      onError: function endObservationOnError(request: Request) {
        logger.info('request', { status: request.response?.statusCode, route: request.event.routeKey });
        endInvocation(operation.operationId);
      },
    })
    .use({
      before: function authentication(request: Request) {
        const authentication = authenticationFromContext(request.event.requestContext.authorizer?.lambda);
        request.internal.authentication = authentication;
        if (!requiresCaller) return;
        if (authentication.state === 'anonymous') {
          throw new AppError('rest_not_logged_in', 401, 'You are not currently logged in.');
        }
        if (authentication.state === 'invalid') {
          throw new AppError('invalid_credentials', 401, 'The user name or password is incorrect.');
        }
        if (authentication.state === 'inactive') {
          throw new AppError('rest_forbidden', 403, 'Your account is not active.');
        }
        if (authentication.state === 'unavailable') throw SERVICE_UNAVAILABLE;
      },
    })
    .use(
      !operation.body
        ? // The catch-all answers 404 rest_no_route to any request, whatever it carries: judging a body there
          // would tell a client its body was wrong for a route that does not exist.
          noBodyParser({
            ignoredOn:
              operation.operationId === 'routeNotFound'
                ? ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
                : ['GET', 'HEAD'],
          })
        : operation.bodyKind === 'multipart' && formParser
          ? formOrJsonBodyParser(formParser)
          : jsonBodyParser(),
    )
    .use({
      before: function validateRequest(request: Request) {
        const { event } = request;
        request.internal.input = {
          params: operation.params ? validatePart(operation.params, event.pathParameters ?? {}) : undefined,
          query: operation.query
            ? validatePart(operation.query, event.queryStringParameters ?? {})
            : undefined,
          body: operation.body ? validatePart(operation.body, event.body ?? {}) : undefined,
        };
        request.internal.idempotencyKey = idempotency?.keyOf(event.requestContext.http.method, event.headers);
      },
    })
    .use({
      onError: function renderError(request: Request) {
        const error = request.error;
        if (!isAppError(error)) {
          logger.error('unhandled error', { error, operationId: operation.operationId });
        }
        request.response = errorResponse(
          error,
          envelope,
          request.event.requestContext.requestId,
          isAuthenticated(request.internal),
        );
      },
    })
    .handler(async (event, context) => {
      const base: RequestContext = {
        requestId: event.requestContext.requestId,
        location: locationOf(event, operation),
      };
      const authenticated = isAuthenticated(event.internal);
      const execute = async (): Promise<HttpResult> => {
        const body = await run(event.internal.input as OperationInput<O>, event.internal, base);
        if (env().VALIDATE_RESPONSES === 'true') assertResponse(operation, body);
        if (operation.textResponse && typeof body === 'string') {
          return textResponse(operation.successStatus ?? 200, body, base.requestId, operation.textResponse);
        }
        return jsonResponse(operation.successStatus ?? 200, body, base.requestId, authenticated);
      };
      const { idempotencyKey, authentication } = event.internal;
      if (idempotency && idempotencyKey !== undefined && authentication.state === 'authenticated') {
        return idempotency.run(
          {
            callerId: authentication.caller.id,
            key: idempotencyKey,
            method: event.requestContext.http.method,
            path: event.rawQueryString ? `${event.rawPath}?${event.rawQueryString}` : event.rawPath,
            rawBody: event.internal.rawBody,
            requestId: base.requestId,
            context,
          },
          // The first answer is kept whatever it is, the contract's errors included (a retried 403 stays a 403).
          async () => {
            try {
              return await execute();
            } catch (error) {
              if (!isAppError(error)) throw error;
              return errorResponse(error, envelope, base.requestId, authenticated);
            }
          },
        );
      }
      const result = await execute();
      return event.requestContext.http.method === 'GET'
        ? withEntityTag(result, event.headers?.['if-none-match'])
        : result;
    });
}

/** The contract's envelope for an error: AppErrors as they say, anything else a 500 that tells nothing. */
function errorResponse(
  error: unknown,
  envelope: ErrorEnvelope,
  requestId: string,
  authenticated: boolean,
): HttpResult {
  const appError = isAppError(error) ? error : INTERNAL_ERROR;
  const extraHeaders: Record<string, string> = {
    ...(appError.code === 'invalid_credentials' ? { 'www-authenticate': 'Basic realm="community"' } : {}),
    // A passing outage must never be answered from a cache.
    ...(appError === SERVICE_UNAVAILABLE ? { 'cache-control': 'no-store' } : {}),
    ...(appError.retryAfterSeconds !== undefined
      ? { 'retry-after': String(appError.retryAfterSeconds) }
      : {}),
  };
  return jsonResponse(appError.status, errorBody(appError, envelope), requestId, authenticated, extraHeaders);
}

function assertResponse(operation: Operation, body: unknown): void {
  const result = v.safeParse(operation.response, body);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
    logger.error('response does not match its contract', { operationId: operation.operationId, problems });
    throw new Error(
      `Response of ${operation.operationId} does not match its contract: ${problems.join('; ')}`,
    );
  }
}
