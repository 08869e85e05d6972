import { type Authentication, authenticate } from '../auth/index.ts';
import { findUserById } from '../users/index.ts';
import { hashLiveTicket } from './issue-live-ticket.ts';
import { consumeLiveTicket } from './live-connection-repository.ts';

/** Tickets are 43 base64url characters; anything else is refused without a read. */
const TICKET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Decides a live connection at `$connect`: an `Authorization` header (application password or bearer token, as on
 * every HTTP route) or a `ticket` query parameter (used up here). Only an authenticated, active member connects.
 * Answers the member id, or undefined to refuse. Throws when a store cannot be read (refused too).
 */
export async function authorizeLiveConnection(
  authorization: string | undefined,
  ticket: string | undefined,
): Promise<number | undefined> {
  if (authorization !== undefined && authorization.trim() !== '') {
    return activeMember(await authenticate(authorization));
  }
  if (ticket === undefined || !TICKET_PATTERN.test(ticket)) return undefined;
  const userId = await consumeLiveTicket(hashLiveTicket(ticket), Date.now());
  if (userId === undefined) return undefined;
  // The member may have been suspended since the ticket was issued.
  const user = await findUserById(userId);
  return user && user.status === 'active' ? userId : undefined;
}

function activeMember(authentication: Authentication): number | undefined {
  return authentication.state === 'authenticated' ? authentication.caller.id : undefined;
}
