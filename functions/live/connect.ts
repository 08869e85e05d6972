import type { Context } from 'aws-lambda';
import { openLiveConnection } from '../../shared/domain/live/open-live-connection.ts';
import { observeInvocation } from '../../shared/observability/invocation.ts';
import { type LiveEvent, type LiveResult, memberOf } from './live-event.ts';

/** `$connect`, after the authorizer allowed it: records the connection (a non-2xx answer refuses it). */
export function handler(event: LiveEvent, context?: Context): Promise<LiveResult> {
  return observeInvocation(
    'live-connect',
    context,
    { requestId: event.requestContext.requestId },
    async () => {
      const userId = memberOf(event);
      if (userId === undefined) return { statusCode: 403 };
      await openLiveConnection(userId, event.requestContext.connectionId);
      return { statusCode: 200 };
    },
  );
}
