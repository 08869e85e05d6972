import { updateFeed as contract } from '../../../shared/contracts/feeds.ts';
import { updateFeed } from '../../../shared/domain/feeds/update-feed.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params, body }, ctx) =>
  updateFeed(ctx.caller, params.feed_id, body),
);
