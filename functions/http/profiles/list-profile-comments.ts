import { listProfileComments as contract } from '../../../shared/contracts/profile-lists.ts';
import { listProfileComments } from '../../../shared/domain/profiles/list-profile-comments.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, ({ params, query }, ctx) =>
  listProfileComments(ctx.caller, params.username, query).then((found) => ({
    comments: toPaginatorB(found.page, ctx.location),
    xprofile: found.xprofile,
  })),
);
