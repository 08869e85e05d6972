import { getGeneralSettings as contract } from '../../../shared/contracts/settings.ts';
import { showGeneralSettings } from '../../../shared/domain/settings/show-general-settings.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => showGeneralSettings(ctx.caller));
