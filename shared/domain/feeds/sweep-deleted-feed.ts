import { publish } from '../../integrations/queue-publisher.ts';
import type { SweepFeedMessage } from '../../messages/index.ts';
import { findFeedSweepMarker, removeFeedSweepMarker } from './feed-sweep-repository.ts';
import { sweepFeedChildren } from './sweep-feed-children.ts';

/**
 * The `feeds` worker's step for a deleted feed: removes up to a budget of its likes and comments, then sends the
 * message again with what is left, or removes the feed's sweep marker when done. Only a feed whose marker exists
 * is swept (its delete put the marker; ids are never reused), so a stray or late redelivery removes nothing.
 * A failed follow-up fails this message, so SQS redelivers it: a sweep never stops half way for good.
 */
export async function sweepDeletedFeed(message: SweepFeedMessage): Promise<void> {
  if (!(await findFeedSweepMarker(message.post_id))) return;
  const progress = await sweepFeedChildren(message.post_id, message.comments_left);
  if (progress.finished) await removeFeedSweepMarker(message.post_id);
  else await publish('feeds', { post_id: message.post_id, comments_left: progress.commentsLeft });
}
