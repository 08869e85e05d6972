import { listProfileMedia as contract } from '../../../shared/contracts/profile-lists.ts';
import { listProfileMedia } from '../../../shared/domain/profiles/list-profile-media.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ params, query }, ctx) =>
  listProfileMedia(ctx.caller, params.username, query),
);
