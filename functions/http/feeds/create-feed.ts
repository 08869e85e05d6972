import { createFeed as contract } from '../../../shared/contracts/feeds.ts';
import { createFeed } from '../../../shared/domain/feeds/create-feed.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ body }, ctx) => createFeed(ctx.caller, body));
