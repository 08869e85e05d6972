import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { isConditionalCheckFailed } from './errors.ts';
import type { ItemKey } from './partition.ts';

/**
 * Send-once claims (a mail delivery, an invitation e-mail): an item in state `sending` carrying the `claim_id` of
 * the sender that holds it until its lease ends. Giving a claim up after a failed send lets the retry claim at once
 * instead of waiting for the lease; a claim that is no longer ours (the lease ended and another sender took over)
 * is left alone.
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
