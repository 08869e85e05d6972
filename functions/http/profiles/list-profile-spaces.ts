import { listProfileSpaces as contract } from '../../../shared/contracts/profile-lists.ts';
import { listProfileSpaces } from '../../../shared/domain/profiles/list-profile-spaces.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) =>
  listProfileSpaces(ctx.caller, params.username),
);
