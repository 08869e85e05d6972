import { deleteAllNotifications as contract } from '../../../shared/contracts/notifications.ts';
import { deleteAllNotifications } from '../../../shared/domain/notifications/delete-all-notifications.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => deleteAllNotifications(ctx.caller));
