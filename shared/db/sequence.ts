import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { type SequenceName, sequenceKey } from './keys/sequences.ts';

/**
 * Integer ids (the contract's ids are integers) from an atomic counter item: one UpdateItem with ADD, so two
 * concurrent creates can never receive the same id. Ids are never reused; a failed create leaves a gap.
 */
export async function nextId(name: SequenceName, count = 1): Promise<number> {
  const result = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: sequenceKey(name),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(result.Attributes?.value);
  // With count > 1 the caller owns the block [last - count + 1, last]; return its first id.
  return last - count + 1;
}
