import { detachDeletedTopic } from '../../shared/domain/topics/detach-deleted-topic.ts';
import { sqsHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsHandler('topics', detachDeletedTopic);
