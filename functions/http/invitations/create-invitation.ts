import { createInvitation as contract } from '../../../shared/contracts/invitations.ts';
import { createInvitation } from '../../../shared/domain/invitations/create-invitation.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ body }, ctx) => createInvitation(ctx.caller, body));
