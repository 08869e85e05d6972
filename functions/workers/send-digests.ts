import { handleDigestMessage } from '../../shared/domain/notifications/send-digests.ts';
import { sqsHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsHandler('digest', handleDigestMessage);
