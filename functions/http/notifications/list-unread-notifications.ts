import { listUnreadNotifications as contract } from '../../../shared/contracts/notifications.ts';
import { listUnreadNotifications } from '../../../shared/domain/notifications/list-unread-notifications.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => listUnreadNotifications(ctx.caller));
