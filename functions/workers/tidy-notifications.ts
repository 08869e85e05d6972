import { tidyNotifications } from '../../shared/domain/notifications/tidy-notifications.ts';
import { sqsHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsHandler('notifications', tidyNotifications);
