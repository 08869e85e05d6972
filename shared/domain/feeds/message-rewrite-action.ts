import { commentKey, postKey } from '../../db/keys/feeds.ts';
import { type TransactAction, updateAction } from '../../db/transact.ts';
import { renderMarkdown } from '../text/index.ts';

/**
 * The write that gives an existing feed or comment a new message (a bulk writer bringing its source's text up to
 * date: the migration with `skip_existing` off): the message, its rendering and `updated_at`; counters, dates of
 * creation and everything else stay. Conditioned on the item still existing (one deleted meanwhile stays deleted).
 */
export function messageRewriteAction(
  kind: 'post' | 'comment',
  id: number,
  message: string,
  updatedAt: string,
): TransactAction {
  return updateAction(kind === 'post' ? postKey(id) : commentKey(id), {
    UpdateExpression: 'SET message = :message, message_rendered = :rendered, updated_at = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: {
      ':message': message,
      ':rendered': renderMarkdown(message),
      ':now': updatedAt,
    },
  });
}
