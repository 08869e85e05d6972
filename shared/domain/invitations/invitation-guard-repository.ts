import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { releaseSendingClaim } from '../../db/claims.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
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

export type GuardClaim =
  | { readonly outcome: 'claimed'; readonly claimId: string }
  /** The invitation exists (`already_invited`). */
  | { readonly outcome: 'sent' }
  /** Another request holds a live claim: it is sending the same invitation now. */
  | { readonly outcome: 'busy' };

const keyOf = (guard: GuardRef) => invitationGuardKey(guard.spaceId, guard.inviterId, guard.email);

/** Creates the guard as `sending`, or takes over a `sending` guard whose lease expired. Never takes `sent`. */
export async function claimInvitationGuard(guard: GuardRef, now = Date.now()): Promise<GuardClaim> {
  const claimId = randomUUID();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(guard),
        UpdateExpression:
          'SET entity = :entity, #state = :sending, claim_id = :claim, claimed_until = :until, expires_at_epoch = :ttl',
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND claimed_until < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':entity': 'invitation_guard',
          ':sending': 'sending',
          ':claim': claimId,
          ':until': now + INVITATION_CLAIM_LEASE_MS,
          ':now': now,
          ':ttl': Math.floor((now + INVITATION_CLAIM_LEASE_MS) / 1000) + 3600,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'claimed', claimId };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const current = (error as { Item?: Record<string, { S?: string }> }).Item;
    return current?.state?.S === 'sent' ? { outcome: 'sent' } : { outcome: 'busy' };
  }
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
