import { deleteMedia as contract } from '../../../shared/contracts/media.ts';
import { deleteMedia } from '../../../shared/domain/media/delete-media.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => deleteMedia(ctx.caller, params.id));
