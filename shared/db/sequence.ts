import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { COUNTER_ID_CEILING } from './ids.ts';
import { type SequenceName, sequenceKey } from './keys/sequences.ts';

/**
 * Blocks of integer ids from an atomic counter item: one UpdateItem with ADD, so two concurrent callers never
 * receive overlapping blocks. Ids are never reused; a failed create leaves a gap. Only bulk operator paths take
 * ids here (the import, the migration's id spaces: one write per block, not per entity); requests draw time ids
 * (ids.ts). Invariant: every counter id is below `COUNTER_ID_CEILING` (10^11), so counter ids and time ids
 * (≥ 2^52) never collide; a block that would reach the ceiling is refused (its ids are left unused).
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
  if (!(last < COUNTER_ID_CEILING))
    throw new Error(`The ${name} counter reached ${last}: counter ids must stay below ${COUNTER_ID_CEILING}`);
  // With count > 1 the caller owns the block [last - count + 1, last]; return its first id.
  return last - count + 1;
}
