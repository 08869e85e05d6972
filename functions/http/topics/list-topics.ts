import { listTopics as contract } from '../../../shared/contracts/topics.ts';
import { listTopics } from '../../../shared/domain/topics/list-topics.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { withPaginationBlockA } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ query }, ctx) =>
  withPaginationBlockA('topics', await listTopics(ctx.caller, query)),
);
