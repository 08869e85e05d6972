import type {
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult,
} from 'aws-lambda';
import { type Authentication, authenticate } from '../../shared/domain/auth/authenticate.ts';
import { type AuthorizerContext, toAuthorizerContext } from '../../shared/http/auth-context.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * The Lambda authorizer (HTTP API, payload 2.0, simple responses). It always authorizes and reports what it
 * found in the context, because only the handler can render the contract's 401/403/503 envelopes: API Gateway's
 * own rejections have fixed bodies. For the same reason the route has no identity source, which rules out the
 * gateway's result cache. What this process remembers between requests is only which credential a header's
 * secret matched; the user and that credential are re-read on every request (shared/domain/auth/authenticate.ts).
 */
export async function handler(
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const context = toAuthorizerContext(await decide(header));
  logger.debug('authorizer', { state: context.state, userId: context.userId });
  return { isAuthorized: true, context };
}

/**
 * A store that cannot be read (DynamoDB unreachable, the pepper secret unavailable) decides nothing: the request
 * is answered 503 in the contract's envelope instead of the gateway's bare 500, and the next request tries again.
 */
async function decide(header: string | undefined): Promise<Authentication> {
  try {
    return await authenticate(header);
  } catch (error) {
    logger.error('authorizer could not decide', { error });
    return { state: 'unavailable' };
  }
}
