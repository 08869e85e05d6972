import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { releaseSendingClaim } from '../../db/claims.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
import { mailDeliveryKey } from '../../db/keys/notifications.ts';

/**
 * The delivery record of one queued e-mail, by dedupe id: `sending` while one delivery holds the claim (until
 * `claimed_until`, epoch ms), `sent` once SES accepted it. Every change is a conditional write, so concurrent
 * deliveries of the same message agree on one sender without reading first.
 */

/**
 * How long a claim holds. Longer than the mail worker's timeout (30 s), so a sender that is still running never
 * loses its claim; shorter than the queue's visibility timeout (180 s), so when a sender crashed, the redelivery
 * of its message finds the claim expired and sends. A unit test checks both against the catalogue.
 */
export const MAIL_CLAIM_LEASE_MS = 60_000;

/** Records outlive any redelivery of the message (SQS retention is at most 14 days; the DLQ keeps its own copy). */
const RECORD_TTL_SECONDS = 7 * 24 * 60 * 60;

export type MailClaim =
  | { readonly outcome: 'claimed'; readonly claimId: string }
  /** Another delivery already sent it. */
  | { readonly outcome: 'sent' }
  /** Another delivery holds a live claim: it may still send, or fail and release. */
  | { readonly outcome: 'busy' };

/**
 * Claims the right to send: creates the record as `sending`, or takes over a `sending` record whose lease has
 * expired (its sender crashed). Never takes a `sent` record or a live claim.
 */
export async function claimMailDelivery(dedupeId: string, now = Date.now()): Promise<MailClaim> {
  const claimId = randomUUID();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mailDeliveryKey(dedupeId),
        UpdateExpression:
          'SET entity = :entity, #state = :sending, claim_id = :claim, claimed_until = :until, expires_at_epoch = :ttl',
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND claimed_until < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':entity': 'mail_delivery',
          ':sending': 'sending',
          ':claim': claimId,
          ':until': now + MAIL_CLAIM_LEASE_MS,
          ':now': now,
          ':ttl': Math.floor(now / 1000) + RECORD_TTL_SECONDS,
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
 * Records SES's acceptance under the claim. Answers false when the claim was no longer ours (the send outlived
 * the lease and another delivery took over): the e-mail may then have gone out twice.
 */
export async function markMailSent(
  dedupeId: string,
  claimId: string,
  sesMessageId: string | undefined,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mailDeliveryKey(dedupeId),
        UpdateExpression:
          'SET #state = :sent, ses_message_id = :ses, sent_at = :at REMOVE claim_id, claimed_until',
        ConditionExpression: 'claim_id = :claim',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':sent': 'sent',
          ':ses': sesMessageId ?? null,
          ':at': new Date().toISOString(),
          ':claim': claimId,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Gives the claim up after a failed send, so the retry can claim at once instead of waiting for the lease. */
export function releaseMailClaim(dedupeId: string, claimId: string): Promise<void> {
  return releaseSendingClaim(mailDeliveryKey(dedupeId), claimId);
}
