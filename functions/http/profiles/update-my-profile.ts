import { updateMyProfile as contract } from '../../../shared/contracts/profiles.ts';
import { updateProfile } from '../../../shared/domain/profiles/update-profile.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ body }, ctx) => updateProfile(ctx.caller, body));
