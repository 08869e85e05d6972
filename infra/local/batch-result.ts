import type { SQSEvent } from 'aws-lambda';
import type { QueueEntry } from '../../shared/catalogue/index.ts';
import type { BatchInvocation } from './poller.ts';

/**
 * How the local poller reads a worker's answer to one SQS batch, as Lambda's event source mapping does: which
 * records stay on the queue (redelivered after the visibility timeout) and what the log line says.
 */
export interface BatchResult {
  /** Records to leave on the queue (redelivered after the visibility timeout). */
  readonly failedIds: ReadonlySet<string>;
  readonly outcome: 'ok' | 'partial' | 'error' | 'timeout' | 'invalid_response';
  readonly errorText?: string;
}

/** Lambda's reading of a batch invocation: an error or timeout fails the whole batch, else the named records. */
export function interpret(invocation: BatchInvocation, event: SQSEvent, entry: QueueEntry): BatchResult {
  const all = new Set(event.Records.map((record) => record.messageId));
  if (invocation.outcome === 'throttled') {
    // The event source mapping retries a throttled batch: the messages stay on the queue.
    return { failedIds: all, outcome: 'error', errorText: 'throttled (reserved concurrency)' };
  }
  if (invocation.outcome === 'error') {
    return {
      failedIds: all,
      outcome: 'error',
      errorText: `${invocation.error.name}: ${invocation.error.message}`,
    };
  }
  if (invocation.outcome === 'timeout') {
    return {
      failedIds: all,
      outcome: 'timeout',
      errorText: `worker did not finish within ${entry.timeoutSeconds} s`,
    };
  }
  const failures = invocation.value?.batchItemFailures ?? [];
  // Lambda treats a failure naming no record of the batch as a failure of the whole batch.
  if (failures.some((failure) => !failure.itemIdentifier || !all.has(failure.itemIdentifier))) {
    return { failedIds: all, outcome: 'invalid_response' };
  }
  const failedIds = new Set(failures.map((failure) => failure.itemIdentifier));
  return { failedIds, outcome: failedIds.size === 0 ? 'ok' : 'partial' };
}
