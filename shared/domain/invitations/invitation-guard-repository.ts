import { claimSending, releaseSendingClaim, type SendingClaim } from '../../db/claims.ts';
import { invitationGuardKey } from '../../db/keys/invitations.ts';
import { getItem } from '../../db/reads.ts';
import { type InvitationGuardItem, InvitationGuardItemSchema } from './invitation-item.ts';

/**
 * The guard of one (space, inviter, e-mail), claimed before the invitation e-mail is sent so that concurrent
 * identical invitations send one e-mail and store one invitation. Every change is a conditional write.
 */

/**
 * How long a claim holds: longer than the function's 29 s timeout, so a request still sending never loses its
 * claim; a claim left by a request that crashed between claim and commit is taken over after it (and TTL removes
 * it if nobody retries).
 */
export const INVITATION_CLAIM_LEASE_MS = 60_000;

export interface GuardRef {
  readonly spaceId: number;
  readonly inviterId: number;
  readonly email: string;
}

/** `sent`: the invitation exists (`already_invited`); `busy`: another request is sending the same invitation now. */
export type GuardClaim = SendingClaim;

const keyOf = (guard: GuardRef) => invitationGuardKey(guard.spaceId, guard.inviterId, guard.email);

/** Creates the guard as `sending`, or takes over a `sending` guard whose lease expired. Never takes `sent`. */
export function claimInvitationGuard(guard: GuardRef, now = Date.now()): Promise<GuardClaim> {
  return claimSending(
    keyOf(guard),
    {
      entity: 'invitation_guard',
      leaseMs: INVITATION_CLAIM_LEASE_MS,
      expiresAtEpoch: Math.floor((now + INVITATION_CLAIM_LEASE_MS) / 1000) + 3600,
    },
    now,
  );
}

/** The guard as it is now (strongly consistent), for a request waiting on another's claim. */
export function readInvitationGuard(guard: GuardRef): Promise<InvitationGuardItem | undefined> {
  return getItem(keyOf(guard), InvitationGuardItemSchema, { consistent: true });
}

/** Gives the claim up after a failed send, so nothing stays stored and a retry claims at once. */
export function releaseInvitationGuard(guard: GuardRef, claimId: string): Promise<void> {
  return releaseSendingClaim(keyOf(guard), claimId);
}

/** The guard's half of the commit: `sent` under our claim (the claim fields and the TTL go). */
export const guardCommitUpdate = (guard: GuardRef, claimId: string, invitationId: number) => ({
  key: keyOf(guard),
  update: {
    UpdateExpression:
      'SET #state = :sent, invitation_id = :id REMOVE claim_id, claimed_until, expires_at_epoch',
    ConditionExpression: 'claim_id = :claim AND #state = :sending',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: {
      ':sent': 'sent',
      ':id': invitationId,
      ':claim': claimId,
      ':sending': 'sending',
    },
  },
});
