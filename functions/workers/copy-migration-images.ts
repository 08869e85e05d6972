import { copyMigrationImages } from '../../shared/domain/migrations/copy-migration-images.ts';
import { sqsHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsHandler('images', (message, record) =>
  copyMigrationImages(message, Number(record.attributes?.ApproximateReceiveCount ?? 1)),
);
