import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.ts';
import { isConditionalCheckFailed } from '../../db/errors.ts';
import { mailDeliveryKey } from '../../db/keys/notifications.ts';

/** Markers outlive any redelivery of the message (SQS retention is at most 14 days; the DLQ keeps its own copy). */
const MARKER_TTL_SECONDS = 7 * 24 * 60 * 60;

export async function isMailSent(dedupeId: string): Promise<boolean> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: mailDeliveryKey(dedupeId), ConsistentRead: true }),
  );
  return result.Item?.state === 'sent';
}

/** Records a successful send; answers false when another delivery of the same message recorded it first. */
export async function recordMailSent(dedupeId: string, sesMessageId: string | undefined): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...mailDeliveryKey(dedupeId),
          entity: 'mail_delivery',
          state: 'sent',
          ses_message_id: sesMessageId ?? null,
          sent_at: new Date().toISOString(),
          expires_at_epoch: Math.floor(Date.now() / 1000) + MARKER_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
