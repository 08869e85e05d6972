import { updateTopic as contract } from '../../../shared/contracts/topics.ts';
import { updateTopic } from '../../../shared/domain/topics/update-topic.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params, body }, ctx) =>
  updateTopic(ctx.caller, params.topic_id, body),
);
