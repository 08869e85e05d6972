import { getMedia as contract } from '../../../shared/contracts/media.ts';
import { getMedia } from '../../../shared/domain/media/get-media.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => getMedia(ctx.caller, params.id));
