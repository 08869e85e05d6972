import { updateTopicsConfig as contract } from '../../../shared/contracts/topics.ts';
import { updateTopicsConfig } from '../../../shared/domain/topics/update-topics-config.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ body }, ctx) => updateTopicsConfig(ctx.caller, body));
