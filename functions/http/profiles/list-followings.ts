import { listFollowings as contract } from '../../../shared/contracts/profiles.ts';
import { listFollowings } from '../../../shared/domain/profiles/list-follows.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ params, query }, ctx) => ({
  followings: toPaginatorB(
    await listFollowings(ctx.caller, { ...query, username: params.username }),
    ctx.location,
  ),
}));
