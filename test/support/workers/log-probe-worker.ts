import { logger } from '../../../shared/observability/logger.ts';
import { sqsHandler } from '../../../shared/worker/sqs-handler.ts';
import { signal, waitFor } from '../barrier.ts';

/**
 * A worker built with the real worker factory that logs only while the log-probe HTTP function is in flight
 * (the run id travels in the message's dedupe id), then lets that function finish.
 */
export const handler = sqsHandler('mail', async (message) => {
  const run = message.dedupe_id;
  await waitFor(`${run}:request-in-flight`);
  logger.info('probe: worker');
  signal(`${run}:worker-logged`);
});
