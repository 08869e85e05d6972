import { reactToFeed as contract } from '../../../shared/contracts/feed-comments.ts';
import { reactToFeed } from '../../../shared/domain/feeds/react-to-feed.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params, body }, ctx) =>
  reactToFeed(ctx.caller, params.feed_id, body),
);
