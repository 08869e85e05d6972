import { listFeeds as contract } from '../../../shared/contracts/feeds.ts';
import { listFeeds } from '../../../shared/domain/feeds/list-feeds.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ query }, ctx) => listFeeds(ctx.caller, query));
