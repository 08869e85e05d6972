import { createFeedComment as contract } from '../../../shared/contracts/feed-comments.ts';
import { createComment } from '../../../shared/domain/feeds/create-comment.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params, body }, ctx) =>
  createComment(ctx.caller, params.feed_id, body),
);
