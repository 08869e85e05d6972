import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import type { QueueName } from '../catalogue/queues.ts';
import { QUEUE_MESSAGES, type QueueMessage } from '../messages/index.ts';
import { logger } from '../observability/logger.ts';

/**
 * The one SQS worker factory: each record's JSON body is parsed against the queue's message contract
 * (shared/messages, the same schema the publisher checks) and processed; records that fail (malformed, or
 * processing threw) are returned as `batchItemFailures`, so only they are redelivered and, after
 * `maxReceiveCount` deliveries, moved to the dead-letter queue. The others are deleted.
 */
export function sqsHandler<Q extends QueueName>(
  queue: Q,
  processRecord: (message: QueueMessage<Q>, record: SQSRecord) => Promise<unknown>,
) {
  const messageSchema = QUEUE_MESSAGES[queue];
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const fields = {
        queue,
        messageId: record.messageId,
        receiveCount: record.attributes?.ApproximateReceiveCount,
      };
      let message: QueueMessage<Q>;
      try {
        const parsed = v.safeParse(messageSchema, JSON.parse(record.body));
        if (!parsed.success) {
          const problems = parsed.issues.map(
            (issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`,
          );
          logger.error('malformed message', { ...fields, problems });
          failures.push({ itemIdentifier: record.messageId });
          continue;
        }
        message = parsed.output as QueueMessage<Q>;
      } catch (error) {
        logger.error('message body is not JSON', { ...fields, error });
        failures.push({ itemIdentifier: record.messageId });
        continue;
      }
      try {
        await processRecord(message, record);
        logger.info('message processed', fields);
      } catch (error) {
        logger.error('message failed', { ...fields, error });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}
