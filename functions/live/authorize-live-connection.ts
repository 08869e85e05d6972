import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { authorizeLiveConnection } from '../../shared/domain/live/authorize-live-connection.ts';
import { logger } from '../../shared/observability/logger.ts';
import { observeInvocation } from '../../shared/observability/invocation.ts';

/**
 * The live API's `$connect` authorizer (WebSocket APIs take REQUEST authorizers answering an IAM policy). Unlike the
 * HTTP authorizer it decides: a refused connection has no body to render, so Deny (403 at the handshake) is the
 * answer. No identity source, so either credential kind reaches it (and no result is cached: tickets are single use).
 */
export function handler(
  event: APIGatewayRequestAuthorizerEvent,
  context?: Context,
): Promise<APIGatewayAuthorizerResult> {
  return observeInvocation(
    'live-authorizer',
    context,
    { requestId: event.requestContext?.requestId },
    async () => {
      const headers = event.headers ?? {};
      const authorization = headers.authorization ?? headers.Authorization;
      let userId: number | undefined;
      try {
        userId = await authorizeLiveConnection(authorization, event.queryStringParameters?.ticket);
      } catch (error) {
        logger.error('live authorizer could not decide', { error });
      }
      return {
        principalId: userId === undefined ? 'anonymous' : `user-${userId}`,
        policyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Action: 'execute-api:Invoke',
              Effect: userId === undefined ? 'Deny' : 'Allow',
              Resource: event.methodArn,
            },
          ],
        },
        ...(userId === undefined ? {} : { context: { userId } }),
      };
    },
  );
}
