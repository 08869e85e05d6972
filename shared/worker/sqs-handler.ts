import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import type { QueueName } from '../catalogue/queues.ts';
import { QUEUE_MESSAGES, type QueueMessage } from '../messages/index.ts';
import {
  appendLogKeys,
  beginInvocation,
  endInvocation,
  observeInvocation,
  removeLogKeys,
} from '../observability/invocation.ts';
import { logger } from '../observability/logger.ts';

/** What a record's processing answers when the record must be delivered again later, though nothing failed. */
export const RETRY_LATER = Symbol('retry later');

/**
 * The one SQS worker factory: each record's JSON body is parsed against the queue's message contract
 * (shared/messages, the same schema the publisher checks) and processed; records that fail (malformed, or
 * processing threw) are returned as `batchItemFailures`, so only they are redelivered and, after
 * `maxReceiveCount` deliveries, moved to the dead-letter queue. The others are deleted.
 *
 * A record's processing may also answer `RETRY_LATER`: nothing went wrong, but the record must come back later
 * (another delivery of the same message is under way); it becomes a batch item failure without an error line.
 *
 * Every invocation is observed as the function `<queue>Worker` (the id CDK gives it): log lines carry the Lambda
 * context and, while a record is processed, its message id; metrics are published at the end.
 */
export function sqsHandler<Q extends QueueName>(
  queue: Q,
  processRecord: (message: QueueMessage<Q>, record: SQSRecord) => Promise<unknown>,
) {
  const functionId = `${queue}Worker`;
  // Observed with begin/end rather than observeInvocation's callback, so a message's path enters this module once
  // (the migration chunk's path is checked for that: test/api/migrations-chunk-path.settings.test.ts).
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    beginInvocation(functionId, context, { queue });
    try {
      const failures: SQSBatchResponse['batchItemFailures'] = [];
      for (const record of event.Records) {
        appendLogKeys({
          messageId: record.messageId,
          receiveCount: record.attributes?.ApproximateReceiveCount,
        });
        try {
          if (!(await processOne(record))) failures.push({ itemIdentifier: record.messageId });
        } finally {
          removeLogKeys(['messageId', 'receiveCount']);
        }
      }
      return { batchItemFailures: failures };
    } finally {
      endInvocation(functionId);
    }
  };

  /** Answers whether the record is done (deleted) rather than to be delivered again. */
  async function processOne(record: SQSRecord): Promise<boolean> {
    const message = parseRecord(queue, record);
    if (message === undefined) return false;
    try {
      const outcome = await processRecord(message, record);
      if (outcome === RETRY_LATER) {
        logger.info('message deferred for a later delivery');
        return false;
      }
      logger.info('message processed');
      return true;
    } catch (error) {
      logger.error('message failed', { error });
      return false;
    }
  }
}

/** The record's message checked against its queue's contract; undefined (logged) when malformed. */
function parseRecord<Q extends QueueName>(queue: Q, record: SQSRecord): QueueMessage<Q> | undefined {
  try {
    const parsed = v.safeParse(QUEUE_MESSAGES[queue], JSON.parse(record.body));
    if (parsed.success) return parsed.output as QueueMessage<Q>;
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
    logger.error('malformed message', { problems });
  } catch (error) {
    logger.error('message body is not JSON', { error });
  }
  return undefined;
}

/**
 * The batch form, for workers that gain from seeing a whole batch at once (grouping writes per partition): the
 * well-formed messages go to `processBatch` together, which answers the message ids to deliver again; malformed
 * ones fail on their own, and a throw fails every message of the batch.
 */
export function sqsBatchHandler<Q extends QueueName>(
  queue: Q,
  processBatch: (
    messages: { readonly receiptId: string; readonly message: QueueMessage<Q> }[],
  ) => Promise<ReadonlySet<string>>,
) {
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    observeInvocation(`${queue}Worker`, context, { queue }, async () => {
      const failures = new Set<string>();
      const messages: { receiptId: string; message: QueueMessage<Q> }[] = [];
      for (const record of event.Records) {
        appendLogKeys({ messageId: record.messageId });
        const message = parseRecord(queue, record);
        removeLogKeys(['messageId']);
        if (message === undefined) failures.add(record.messageId);
        else messages.push({ receiptId: record.messageId, message });
      }
      try {
        if (messages.length > 0) for (const id of await processBatch(messages)) failures.add(id);
        logger.info('batch processed', { messages: messages.length, failed: failures.size });
      } catch (error) {
        logger.error('batch failed', { error });
        for (const { receiptId } of messages) failures.add(receiptId);
      }
      return { batchItemFailures: [...failures].map((itemIdentifier) => ({ itemIdentifier })) };
    });
}
