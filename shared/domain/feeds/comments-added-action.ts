import { postKey } from '../../db/keys/feeds.ts';
import { type TransactAction, updateAction } from '../../db/transact.ts';

/**
 * The write that records `added` comments a bulk writer (the migration) put under an existing feed: the feed's
 * `comments_count` grows by that many, on the condition that the feed still exists (a feed deleted meanwhile keeps
 * nothing to count). The caller sends it in its own transaction, beside whatever makes it happen once.
 */
export const feedCommentsAddedAction = (postId: number, added: number): TransactAction =>
  updateAction(postKey(postId), {
    UpdateExpression: 'ADD comments_count :added',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':added': added },
  });
