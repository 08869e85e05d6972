import { uploadMedia as contract } from '../../../shared/contracts/media.ts';
import { createUpload } from '../../../shared/domain/media/create-upload.ts';
import { httpHandler } from '../../../shared/http/form-handler.ts';

export const handler = httpHandler(contract, ({ body }, ctx) => createUpload(ctx.caller, body));
