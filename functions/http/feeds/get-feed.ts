import { getFeed as contract } from '../../../shared/contracts/feeds.ts';
import { getFeed } from '../../../shared/domain/feeds/get-feed.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => getFeed(ctx.caller, params.feed_id));
