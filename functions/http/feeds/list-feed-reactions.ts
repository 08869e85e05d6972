import { listFeedReactions as contract } from '../../../shared/contracts/feed-comments.ts';
import { listFeedReactions } from '../../../shared/domain/feeds/list-feed-reactions.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ params, query }, ctx) => ({
  reactions: toPaginatorB(await listFeedReactions(ctx.caller, params.feed_id, query), ctx.location),
}));
