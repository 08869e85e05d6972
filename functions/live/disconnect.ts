import type { Context } from 'aws-lambda';
import { closeLiveConnection } from '../../shared/domain/live/open-live-connection.ts';
import { observeInvocation } from '../../shared/observability/invocation.ts';
import { type LiveEvent, type LiveResult, memberOf } from './live-event.ts';

/** `$disconnect` (best effort in API Gateway: the item's TTL and `GoneException` on send cover a missed one). */
export function handler(event: LiveEvent, context?: Context): Promise<LiveResult> {
  return observeInvocation(
    'live-disconnect',
    context,
    { requestId: event.requestContext.requestId },
    async () => {
      const userId = memberOf(event);
      if (userId !== undefined) await closeLiveConnection(userId, event.requestContext.connectionId);
      return { statusCode: 200 };
    },
  );
}
