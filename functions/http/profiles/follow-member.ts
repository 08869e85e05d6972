import { followMember as contract } from '../../../shared/contracts/profiles.ts';
import { followUser } from '../../../shared/domain/profiles/follow-user.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => followUser(ctx.caller, params.username));
