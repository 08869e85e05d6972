import { listNotifications as contract } from '../../../shared/contracts/notifications.ts';
import { listNotifications } from '../../../shared/domain/notifications/list-notifications.ts';
import { httpHandler } from '../../../shared/http/handler.ts';
import { toPaginatorB } from '../../../shared/http/paginator.ts';

export const handler = httpHandler(contract, async ({ query }, ctx) => {
  const { page = 1, per_page: perPage = 20, is_read: isRead, type, orderby, order, cursor } = query!;
  const result = await listNotifications(ctx.caller, { page, perPage, isRead, type, orderby, order, cursor });
  return { notifications: toPaginatorB(result, ctx.location) };
});
