import { createLiveTicket as contract } from '../../../shared/contracts/live.ts';
import { issueLiveTicket } from '../../../shared/domain/live/issue-live-ticket.ts';
import { httpHandler } from '../../../shared/http/write-handler.ts';

export const handler = httpHandler(contract, (_input, ctx) => issueLiveTicket(ctx.caller));
