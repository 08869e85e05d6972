import { completeMediaUpload as contract } from '../../../shared/contracts/media.ts';
import { completeUpload } from '../../../shared/domain/media/complete-upload.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => completeUpload(ctx.caller, params.id));
