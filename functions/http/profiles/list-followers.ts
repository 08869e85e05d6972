import { listFollowers as contract } from '../../../shared/contracts/profiles.ts';
import { listFollowers } from '../../../shared/domain/profiles/list-follows.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ params, query }, ctx) => ({
  followers: toPaginatorB(
    await listFollowers(ctx.caller, { ...query, username: params.username }),
    ctx.location,
  ),
}));
