import { getMyProfile as contract } from '../../../shared/contracts/profiles.ts';
import { getOwnProfile } from '../../../shared/domain/profiles/get-profile.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => getOwnProfile(ctx.caller));
