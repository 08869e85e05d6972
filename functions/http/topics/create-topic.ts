import { createTopic as contract } from '../../../shared/contracts/topics.ts';
import { createTopic } from '../../../shared/domain/topics/create-topic.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ body }, ctx) => createTopic(ctx.caller, body));
