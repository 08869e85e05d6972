import { updateNotificationPreferences as contract } from '../../../shared/contracts/notifications.ts';
import { updateNotificationPreferences } from '../../../shared/domain/notifications/update-notification-preferences.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ body }, ctx) =>
  updateNotificationPreferences(ctx.caller, body),
);
