import { unfollowMember as contract } from '../../../shared/contracts/profiles.ts';
import { unfollowUser } from '../../../shared/domain/profiles/follow-user.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => unfollowUser(ctx.caller, params.username));
