import { acceptInvitation as contract } from '../../../shared/contracts/invitations.ts';
import { acceptInvitation } from '../../../shared/domain/invitations/accept-invitation.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, ({ params }, ctx) => acceptInvitation(ctx.caller, params.token));
