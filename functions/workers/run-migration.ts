import { processMigrationMessage } from '../../shared/domain/migrations/process-migration-message.ts';
import { sqsHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsHandler('migrations', (message, record) =>
  processMigrationMessage(message, Number(record.attributes?.ApproximateReceiveCount ?? 1)),
);
