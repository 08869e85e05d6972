import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { isConditionalCheckFailed } from './errors.ts';
import type { ItemKey } from './partition.ts';

/**
 * Send-once claims (a mail delivery, an invitation e-mail): an item in state `sending` carrying the `claim_id` of
 * the sender that holds it until its lease ends (`claimed_until`), then `sent`.
 */

export type SendingClaim =
  | { readonly outcome: 'claimed'; readonly claimId: string }
  /** Another sender already sent it. */
  | { readonly outcome: 'sent' }
  /** Another sender holds a live claim: it may still send, or fail and release. */
  | { readonly outcome: 'busy' };

/**
 * Claims the right to send: creates the item as `sending`, or takes over a `sending` item whose lease has expired
 * (its sender crashed). Never takes a `sent` item or a live claim. `expiresAtEpoch` is the item's TTL.
 */
export async function claimSending(
  key: ItemKey,
  claim: { readonly entity: string; readonly leaseMs: number; readonly expiresAtEpoch: number },
  now: number,
): Promise<SendingClaim> {
  const claimId = randomUUID();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression:
          'SET entity = :entity, #state = :sending, claim_id = :claim, claimed_until = :until, expires_at_epoch = :ttl',
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND claimed_until < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':entity': claim.entity,
          ':sending': 'sending',
          ':claim': claimId,
          ':until': now + claim.leaseMs,
          ':now': now,
          ':ttl': claim.expiresAtEpoch,
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

/**
 * Giving a claim up after a failed send lets the retry claim at once instead of waiting for the lease; a claim
 * that is no longer ours (the lease ended and another sender took over) is left alone.
 */
export async function releaseSendingClaim(key: ItemKey, claimId: string): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ConditionExpression: 'claim_id = :claim AND #state = :sending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':claim': claimId, ':sending': 'sending' },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}
