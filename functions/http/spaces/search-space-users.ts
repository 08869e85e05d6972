import { searchSpaceUsers as contract } from '../../../shared/contracts/spaces.ts';
import { searchSpaceUsers } from '../../../shared/domain/spaces/search-space-users.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ query }, ctx) => ({
  users: toPaginatorB(await searchSpaceUsers(ctx.caller, query), ctx.location),
}));
