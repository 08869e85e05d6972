import { sweepDeletedFeed } from '../../shared/domain/feeds/sweep-deleted-feed.ts';
import { sqsHandler } from '../../shared/worker/sqs-handler.ts';

export const handler = sqsHandler('feeds', sweepDeletedFeed);
