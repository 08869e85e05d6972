import { listNotifications as contract } from '../../../shared/contracts/notifications.ts';
import { listNotifications } from '../../../shared/domain/notifications/list-notifications.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ query }, ctx) => ({
  notifications: toPaginatorB(await listNotifications(ctx.caller, query), ctx.location),
}));
