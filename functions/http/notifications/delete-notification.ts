import { deleteNotification as contract } from '../../../shared/contracts/notifications.ts';
import { deleteNotification } from '../../../shared/domain/notifications/delete-notification.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => deleteNotification(ctx.caller, params.id));
