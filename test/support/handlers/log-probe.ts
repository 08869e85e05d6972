import * as v from 'valibot';
import { defineOperation } from '../../../shared/contracts/operation.ts';
import { publicHttpHandler } from '../../../shared/http/handler.ts';
import { logger } from '../../../shared/observability/logger.ts';
import { signal, waitFor } from '../barrier.ts';

/**
 * An HTTP function built with the real handler factory that logs, then stays in flight until the log-probe
 * worker has logged (test/integration/invocation-logs.test.ts), then logs again.
 */
export const logProbe = defineOperation({
  operationId: 'logProbe',
  summary: 'Test probe',
  tags: ['test'],
  query: v.object({ run: v.string() }),
  response: v.object({ ok: v.boolean() }),
  errors: [],
});

export const handler = publicHttpHandler(logProbe, async (input) => {
  const run = String(input.query?.run);
  logger.info('probe: request before worker');
  signal(`${run}:request-in-flight`);
  await waitFor(`${run}:worker-logged`);
  logger.info('probe: request after worker');
  return { ok: true };
});
