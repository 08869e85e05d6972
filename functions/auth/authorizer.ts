import { createHash } from 'node:crypto';
import type {
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult,
  Context,
} from 'aws-lambda';
import { authenticate } from '../../shared/domain/auth/authenticate.ts';
import { type AuthorizerContext, toAuthorizerContext } from '../../shared/http/auth-context.ts';
import { observeInvocation } from '../../shared/observability/invocation.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * The Lambda authorizer (HTTP API, payload 2.0, simple responses). It always authorizes and reports what it
 * found in the context, because only the handler can render the contract's 401/403 envelopes: API Gateway's
 * own rejections have fixed bodies. For the same reason the route has no identity source, which rules out the
 * gateway's result cache; this function keeps its own: 300 s per header, keyed by a hash of the header so no
 * credential is held in memory as a map key.
 */
const CACHE_TTL_MS = 300_000;
const CACHE_MAX_ENTRIES = 5_000;
const cache = new Map<string, { context: AuthorizerContext; expiresAt: number }>();

export function handler(
  event: APIGatewayRequestAuthorizerEventV2,
  lambdaContext?: Context,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  return observeInvocation('authorizer', lambdaContext, { requestId: event.requestContext?.requestId }, () =>
    authorize(event),
  );
}

async function authorize(
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const cacheKey = createHash('sha256')
    .update(header ?? '')
    .digest('base64url');
  const now = Date.now();
  const hit = cache.get(cacheKey);
  if (hit && hit.expiresAt > now) return { isAuthorized: true, context: hit.context };

  const context = toAuthorizerContext(await authenticate(header));
  if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, { context, expiresAt: now + CACHE_TTL_MS });
  logger.debug('authorizer', { state: context.state, userId: context.userId });
  return { isAuthorized: true, context };
}

/** Tests that change a user's status or password between requests start from a cold cache. */
export function clearAuthorizerCache(): void {
  cache.clear();
}
