import { deliverMail } from '../../shared/domain/notifications/deliver-mail.ts';
import { sqsHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsHandler('mail', deliverMail);
