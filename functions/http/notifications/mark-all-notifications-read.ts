import { markAllNotificationsRead as contract } from '../../../shared/contracts/notifications.ts';
import { markAllNotificationsRead } from '../../../shared/domain/notifications/mark-all-notifications-read.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => markAllNotificationsRead(ctx.caller));
