import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import type { QueueName } from '../catalogue/queues.ts';
import { QUEUE_MESSAGES, type QueueMessage } from '../messages/index.ts';
import { appendLogKeys, observeInvocation, removeLogKeys } from '../observability/invocation.ts';
import { logger } from '../observability/logger.ts';

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
/** What a record's processing answers when the record must be delivered again later, though nothing failed. */
export const RETRY_LATER = Symbol('retry later');

export function sqsHandler<Q extends QueueName>(
  queue: Q,
  processRecord: (message: QueueMessage<Q>, record: SQSRecord) => Promise<unknown>,
) {
  const messageSchema = QUEUE_MESSAGES[queue];
  const functionId = `${queue}Worker`;
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    observeInvocation(functionId, context, { queue }, async () => {
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
    });

  /** Answers whether the record is done (deleted) rather than to be delivered again. */
  async function processOne(record: SQSRecord): Promise<boolean> {
    let message: QueueMessage<Q>;
    try {
      const parsed = v.safeParse(messageSchema, JSON.parse(record.body));
      if (!parsed.success) {
        const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
        logger.error('malformed message', { problems });
        return false;
      }
      message = parsed.output as QueueMessage<Q>;
    } catch (error) {
      logger.error('message body is not JSON', { error });
      return false;
    }
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
