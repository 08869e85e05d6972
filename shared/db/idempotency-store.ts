import { createHash } from 'node:crypto';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { db, tableName } from './client.ts';
import { idempotencyKeyPrefix, idempotencyPartitionKey, idempotencyRecordKey } from './keys/idempotency.ts';
import type { ItemKey } from './partition.ts';
import { TABLE_KEY, TTL_ATTRIBUTE } from './table-definition.ts';

/**
 * The replay store of `Idempotency-Key` (shared/http/idempotency.ts): Powertools' DynamoDB persistence layer on the
 * one table. Powertools' own layout would put every record in one static partition (`staticPkValue` with a sort
 * key), which every member's writes would reach; one layer per request with the caller's partition as that
 * "static" value keeps each member's records in their own partition, and the caller's key prefix makes the sort
 * key theirs too. A layer per request also keeps concurrent in-process requests (the local gateway runs handlers
 * in one process) from sharing the prefix Powertools stores on the layer. Expiry is the table's TTL attribute
 * (epoch seconds), so DynamoDB deletes records once a key's 24 hours are over.
 *
 * Item: `pk = IDEMPOTENCY#<caller>`, `sk = IDEMKEY#<caller>#<base64 MD5 of the key payload>`, `idempotency_status`
 * (INPROGRESS | COMPLETED), `expires_at_epoch`, `in_progress_expiry` (epoch ms: a crashed run frees the key then),
 * `response_data` (the first response), `payload_hash` (method, path and body of the first request).
 */
export interface IdempotencyStore {
  readonly persistenceStore: DynamoDBPersistenceLayer;
  readonly keyPrefix: string;
}

export function idempotencyStore(callerId: number): IdempotencyStore {
  return {
    persistenceStore: new DynamoDBPersistenceLayer({
      tableName: tableName(),
      // The document client carries the capacity meter; Powertools sends it plain (marshalled) commands, which
      // a document client passes through unchanged.
      awsSdkV3Client: db() as unknown as DynamoDBClient,
      keyAttr: TABLE_KEY.partitionKey,
      sortKeyAttr: TABLE_KEY.sortKey,
      staticPkValue: idempotencyPartitionKey(callerId),
      expiryAttr: TTL_ATTRIBUTE,
      statusAttr: 'idempotency_status',
      inProgressExpiryAttr: 'in_progress_expiry',
      dataAttr: 'response_data',
      validationKeyAttr: 'payload_hash',
    }),
    keyPrefix: idempotencyKeyPrefix(callerId),
  };
}

/**
 * The table key of the record a key payload leads to, hashed as Powertools hashes it (MD5, base64, of the JSON of
 * the selected value). For tests and operators who look a record up; the request path never needs it.
 */
export function idempotencyRecordKeyOf(callerId: number, keyPayload: string): ItemKey {
  const hashed = createHash('md5').update(JSON.stringify(keyPayload)).digest('base64');
  return idempotencyRecordKey(callerId, hashed);
}
