import type {
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult,
  Context,
} from 'aws-lambda';
import { type Authentication, authenticate } from '../../shared/domain/auth/authenticate.ts';
import { type AuthorizerContext, toAuthorizerContext } from '../../shared/http/auth-context.ts';
import { observeInvocation } from '../../shared/observability/invocation.ts';
import { logger } from '../../shared/observability/logger.ts';

/** API Gateway allows an authorizer 10 s; the answer must leave before the function is cut off. */
const DEFAULT_BUDGET_MS = 10_000;
const ANSWER_MARGIN_MS = 500;

/**
 * The Lambda authorizer (HTTP API, payload 2.0, simple responses). It always authorizes and reports what it
 * found in the context, because only the handler can render the contract's 401/403/503 envelopes: API Gateway's
 * own rejections have fixed bodies. For the same reason the route has no identity source, which rules out the
 * gateway's result cache. What this process remembers between requests is only which credential a header's
 * secret matched; the user and that credential are re-read on every request (shared/domain/auth/authenticate.ts).
 */
export function handler(
  event: APIGatewayRequestAuthorizerEventV2,
  lambdaContext?: Context,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  return observeInvocation('authorizer', lambdaContext, { requestId: event.requestContext?.requestId }, () =>
    authorize(event, lambdaContext),
  );
}

async function authorize(
  event: APIGatewayRequestAuthorizerEventV2,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const budgetMs = (context?.getRemainingTimeInMillis() ?? DEFAULT_BUDGET_MS) - ANSWER_MARGIN_MS;
  const decided = toAuthorizerContext(await decide(header, budgetMs));
  logger.debug('authorizer', { state: decided.state, userId: decided.userId });
  return { isAuthorized: true, context: decided };
}

/**
 * A store that cannot be read in time (DynamoDB unreachable or stalled, the pepper secret unavailable) decides
 * nothing: the request is answered 503 in the contract's envelope instead of the gateway's bare 500, and the next
 * request tries again (no failure is remembered).
 */
async function decide(header: string | undefined, budgetMs: number): Promise<Authentication> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no decision within ${budgetMs} ms`)), Math.max(0, budgetMs));
  });
  try {
    return await Promise.race([authenticate(header), deadline]);
  } catch (error) {
    logger.error('authorizer could not decide', { error });
    return { state: 'unavailable' };
  } finally {
    clearTimeout(timer);
  }
}
