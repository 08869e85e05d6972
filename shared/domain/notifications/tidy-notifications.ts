import type { TidyNotificationsMessage } from '../../messages/index.ts';
import { flipCoveredToRead, purgeCovered } from './notification-state-repository.ts';
import { publish } from '../../integrations/queue-publisher.ts';

/** Items per message: a worker invocation stays well inside its timeout; the rest goes on in a follow-up message. */
export const TIDY_BATCH = 1_000;

/**
 * The tidy worker's step: flips (after a mark-all) or removes (after a delete-all) up to TIDY_BATCH stored items a
 * watermark covers, then enqueues the same message again while any remain. Idempotent: a redelivered message finds
 * fewer items or none; counters never move here (the bulk action already moved them).
 */
export async function tidyNotifications(message: TidyNotificationsMessage): Promise<void> {
  const { more } =
    message.action === 'mark_read'
      ? await flipCoveredToRead(
          message.user_id,
          message.watermark,
          message.read_at ?? message.watermark,
          TIDY_BATCH,
        )
      : await purgeCovered(message.user_id, message.watermark, TIDY_BATCH);
  // A failed follow-up fails this message, so SQS redelivers it: tidying never stops half way for good.
  if (more) await publish('notifications', message);
}
