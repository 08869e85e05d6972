import { deleteTopic as contract } from '../../../shared/contracts/topics.ts';
import { deleteTopic } from '../../../shared/domain/topics/delete-topic.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => deleteTopic(ctx.caller, params.topic_id));
