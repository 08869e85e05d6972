import { createHash, randomBytes } from 'node:crypto';
import type { Caller } from '../auth/index.ts';
import { toIsoDateTime } from '../dates.ts';
import { putLiveTicket } from './live-connection-repository.ts';

/** A ticket opens one live connection within this time, once. */
export const LIVE_TICKET_TTL_MS = 60_000;

/** Tickets are 32 random bytes; only their SHA-256 is stored (high entropy: no pepper needed). */
export const hashLiveTicket = (ticket: string): string =>
  createHash('sha256').update(ticket).digest('base64url');

/**
 * `POST /live/tickets`: a short-lived, single-use ticket bound to the caller, for clients that cannot set an
 * `Authorization` header on a WebSocket (browsers). Passed as `?ticket=` when connecting.
 */
export async function issueLiveTicket(caller: Caller) {
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = Date.now() + LIVE_TICKET_TTL_MS;
  await putLiveTicket(hashLiveTicket(ticket), caller.id, expiresAt);
  // The contract's date-times are UTC to the second, without a zone (as every other one).
  return { ticket, expires_at: toIsoDateTime(new Date(expiresAt).toISOString()) };
}
