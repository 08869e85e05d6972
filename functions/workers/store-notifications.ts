import { storeNotificationEvents } from '../../shared/domain/notifications/store-notification-events.ts';
import { sqsBatchHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsBatchHandler('notify', storeNotificationEvents);
