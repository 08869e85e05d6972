import { markNotificationRead as contract } from '../../../shared/contracts/notifications.ts';
import { markNotificationRead } from '../../../shared/domain/notifications/mark-notification-read.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) =>
  markNotificationRead(ctx.caller, params.id),
);
