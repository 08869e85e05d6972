import { getTopicsConfig as contract } from '../../../shared/contracts/topics.ts';
import { showTopicsConfig } from '../../../shared/domain/topics/show-topics-config.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => showTopicsConfig(ctx.caller));
