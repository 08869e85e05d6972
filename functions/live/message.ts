import type { Context } from 'aws-lambda';
import { answerLiveMessage } from '../../shared/domain/live/answer-live-message.ts';
import { encodeLiveMessage } from '../../shared/domain/live/live-messages.ts';
import { observeInvocation } from '../../shared/observability/invocation.ts';
import type { LiveEvent, LiveResult } from './live-event.ts';

/** `$default`, a two-way route: its answer (`pong` or `error`) goes back on the same connection. */
export function handler(event: LiveEvent, context?: Context): Promise<LiveResult> {
  return observeInvocation(
    'live-message',
    context,
    { requestId: event.requestContext.requestId },
    async () => ({
      statusCode: 200,
      body: encodeLiveMessage(answerLiveMessage(event.body)),
    }),
  );
}
