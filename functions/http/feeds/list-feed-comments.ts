import { listFeedComments as contract } from '../../../shared/contracts/feed-comments.ts';
import { listComments } from '../../../shared/domain/feeds/list-comments.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ params, query }, ctx) => ({
  comments: toPaginatorB(await listComments(ctx.caller, params.feed_id, query), ctx.location),
}));
