import { getNotificationPreferences as contract } from '../../../shared/contracts/notifications.ts';
import { getNotificationPreferences } from '../../../shared/domain/notifications/get-notification-preferences.ts';
import { httpHandler } from '../../../shared/http/handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => getNotificationPreferences(ctx.caller));
