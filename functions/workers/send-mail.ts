import { deliverMail } from '../../shared/domain/notifications/deliver-mail.ts';
import { RETRY_LATER, sqsHandler } from '../../shared/worker/sqs-handler.ts';

/** A delivery that found another one sending the same e-mail comes back later, when that one is done. */
export const handler = sqsHandler('mail', async (message) =>
  (await deliverMail(message)) === 'busy' ? RETRY_LATER : undefined,
);
