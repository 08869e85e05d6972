import { mailMessageSchema } from '../../shared/contracts/notifications.ts';
import { deliverMail } from '../../shared/domain/notifications/deliver-mail.ts';
import { sqsHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsHandler(mailMessageSchema, async (message) => {
  await deliverMail(message);
});
