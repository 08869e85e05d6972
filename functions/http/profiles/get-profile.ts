import { getProfile as contract } from '../../../shared/contracts/profiles.ts';
import { getProfile } from '../../../shared/domain/profiles/get-profile.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => getProfile(ctx.caller, params.username));
