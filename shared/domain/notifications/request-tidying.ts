import { publish } from '../../integrations/queue-publisher.ts';
import type { TidyNotificationsMessage } from '../../messages/index.ts';
import { logger } from '../../observability/logger.ts';

/**
 * Asks the tidy worker to bring stored items in line with a watermark. Correctness never depends on it (every
 * read honours the watermarks), so a failure to enqueue is logged, not answered: the next bulk action enqueues a
 * message that covers the older watermark too.
 */
export async function requestTidying(message: TidyNotificationsMessage): Promise<void> {
  try {
    await publish('notifications', message);
  } catch (error) {
    logger.error('could not enqueue notification tidying', { userId: message.user_id, error });
  }
}
