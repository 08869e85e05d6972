import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName } from '../../db/client.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
import { digestRunKey, notificationPreferencesKey } from '../../db/keys/notifications.ts';
import { getItem } from '../../db/reads.ts';
import type { DigestCadence } from './digest-period.ts';

/** Digest runs are kept long enough to outlive any redelivery, then expire. */
const RUN_TTL_SECONDS = 60 * 24 * 60 * 60;

/**
 * Claims one member's digest of one period before sending: a conditional Put that succeeds for the first claimant,
 * or over a claim whose lease ran out (a sender that crashed). Otherwise answers `done` (the period was already
 * mailed, or found empty) or `busy` (another delivery holds a live claim).
 */
export async function claimDigestRun(
  userId: number,
  frequency: DigestCadence,
  period: string,
  claimId: string,
  leaseMs: number,
): Promise<'claimed' | 'done' | 'busy'> {
  const now = Date.now();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...digestRunKey(userId, frequency, period),
          entity: 'digest_run',
          state: 'sending',
          claim_id: claimId,
          claimed_until: now + leaseMs,
          expires_at_epoch: Math.floor(now / 1000) + RUN_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND claimed_until < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':now': now },
      }),
    );
    return 'claimed';
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const existing = await getItem(digestRunKey(userId, frequency, period), DigestRunSchema, {
      consistent: true,
    });
    return existing?.state === 'sending' ? 'busy' : 'done';
  }
}

const DigestRunSchema = v.object({ state: v.picklist(['sending', 'sent', 'empty']) });

/** Records the outcome (`sent` with the digest's newest notification time, or `empty`) and moves `last_digest_at`. */
export async function finishDigestRun(
  userId: number,
  frequency: DigestCadence,
  period: string,
  claimId: string,
  outcome: { state: 'sent'; newestIncluded: string; sesMessageId: string | undefined } | { state: 'empty' },
): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: digestRunKey(userId, frequency, period),
      UpdateExpression: 'SET #state = :state, finished_at = :now, ses_message_id = :ses REMOVE claimed_until',
      ConditionExpression: 'claim_id = :claim',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':state': outcome.state,
        ':now': new Date().toISOString(),
        ':ses': outcome.state === 'sent' ? (outcome.sesMessageId ?? null) : null,
        ':claim': claimId,
      },
    }),
  );
  if (outcome.state !== 'sent') return;
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: notificationPreferencesKey(userId),
        UpdateExpression: 'SET #last = :newest',
        ConditionExpression: 'attribute_not_exists(#last) OR #last < :newest',
        ExpressionAttributeNames: { '#last': `last_digest_at:${frequency}` },
        ExpressionAttributeValues: { ':newest': outcome.newestIncluded },
      }),
    )
    .catch((error: unknown) => {
      // A later digest already moved it further: nothing to do.
      if (!isConditionalCheckFailed(error)) throw error;
    });
}

/** Gives the claim up after a failed send, so the redelivered message can try again at once. */
export async function releaseDigestRun(
  userId: number,
  frequency: DigestCadence,
  period: string,
  claimId: string,
): Promise<void> {
  await db()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: digestRunKey(userId, frequency, period),
        ConditionExpression: 'claim_id = :claim AND #state = :sending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':claim': claimId, ':sending': 'sending' },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionalCheckFailed(error)) throw error;
    });
}
