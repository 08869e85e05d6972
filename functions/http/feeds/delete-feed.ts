import { deleteFeed as contract } from '../../../shared/contracts/feeds.ts';
import { deleteFeed } from '../../../shared/domain/feeds/delete-feed.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => deleteFeed(ctx.caller, params.feed_id));
