import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { claimSending, releaseSendingClaim, type SendingClaim } from '../../db/claims.ts';
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

/** `sent`: another delivery already sent it; `busy`: another delivery holds a live claim. */
export type MailClaim = SendingClaim;

/**
 * Claims the right to send: creates the record as `sending`, or takes over a `sending` record whose lease has
 * expired (its sender crashed). Never takes a `sent` record or a live claim.
 */
export function claimMailDelivery(dedupeId: string, now = Date.now()): Promise<MailClaim> {
  return claimSending(
    mailDeliveryKey(dedupeId),
    {
      entity: 'mail_delivery',
      leaseMs: MAIL_CLAIM_LEASE_MS,
      expiresAtEpoch: Math.floor(now / 1000) + RECORD_TTL_SECONDS,
    },
    now,
  );
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
