import type { SQSEvent } from 'aws-lambda';
import type { PolledQueue, PollerOptions, WorkerResult } from '../poller.ts';
import type { ProvisionedStack } from '../provision.ts';
import type { BundledRuntime } from './bundled-runtime.ts';

export { type BundledRuntime, startBundledRuntime } from './bundled-runtime.ts';

/**
 * The poller's queues in the bundled mode: those an event source mapping consumes, with its batch size and
 * concurrency, each batch run by the mapped function's processes.
 */
export function bundledConsumers(
  runtime: BundledRuntime,
  provisioned: ProvisionedStack,
  overrides: Partial<PolledQueue>,
): Pick<PollerOptions, 'queues' | 'run'> {
  const queues = provisioned.queues.flatMap((queue) => {
    const consumer = runtime.consumers.get(queue.entry.name);
    if (!consumer) return [];
    const entry = {
      ...queue.entry,
      batchSize: consumer.batchSize,
      maxConcurrency: consumer.maxConcurrency,
      timeoutSeconds: consumer.fn.timeoutSeconds,
    };
    return [{ ...queue, entry, ...overrides }];
  });
  return {
    queues,
    run: (queue: PolledQueue, event: SQSEvent) => {
      const consumer = runtime.consumers.get(queue.entry.name);
      if (!consumer) throw new Error(`no consumer for ${queue.entry.name}`);
      return runtime.pool.invoke<WorkerResult>(consumer.fn, event);
    },
  };
}
