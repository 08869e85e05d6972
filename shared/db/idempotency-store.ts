import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName } from './client.ts';
import { isConditionalCheckFailed } from './errors.ts';
import { idempotencyRecordKey } from './keys/idempotency.ts';
import type { ItemKey } from './partition.ts';
import { TTL_ATTRIBUTE } from './table-definition.ts';

/**
 * The replay store of `Idempotency-Key` (shared/http/idempotency.ts): one record per caller and key, in the
 * caller's own partition, so no partition takes every member's writes and one caller's keys never name another's
 * record. Plain conditional writes on the one table: claim (PutItem `INPROGRESS`), complete (UpdateItem with the
 * response), release (DeleteItem). Expiry is the table's TTL attribute (epoch seconds), so DynamoDB deletes records
 * once a key's 24 hours are over; until it does, an expired record is overwritten by the next claim.
 *
 * Item: `pk = IDEMPOTENCY#<caller>`, `sk = IDEMKEY#<caller>#<base64 MD5 of the JSON of "<caller>:<key>">`,
 * `idempotency_status` (INPROGRESS | COMPLETED), `expires_at_epoch`, `in_progress_expiry` (epoch ms: a crashed run
 * frees the key then), `response_data` (the first response, a map), `payload_hash` (base64 MD5 of the JSON of the
 * request's method, path and body hash). The layout and hashes are the ones Powertools' idempotency utility wrote
 * before this module replaced it (issue 21, item 21), so records written by either are read by both.
 */
export const IN_PROGRESS = 'INPROGRESS';
export const COMPLETED = 'COMPLETED';

/** What a refused claim finds in the record (attributes absent from an item read as undefined). */
export interface IdempotencyRecord {
  readonly status: string | undefined;
  readonly expiresAtEpoch: number | undefined;
  readonly inProgressExpiry: number | undefined;
  readonly payloadHash: string | undefined;
  readonly response: unknown;
}

const md5 = (text: string): string => createHash('md5').update(text).digest('base64');

/** The table key of the record of a key payload (`<caller>:<client key>`). */
export function idempotencyRecordKeyOf(callerId: number, keyPayload: string): ItemKey {
  return idempotencyRecordKey(callerId, md5(JSON.stringify(keyPayload)));
}

/** The hash of the request a key was first used with (its fields in a fixed order: body, method, path). */
export function idempotencyPayloadHash(request: {
  readonly body: string;
  readonly method: string;
  readonly path: string;
}): string {
  return md5(JSON.stringify({ body: request.body, method: request.method, path: request.path }));
}

export interface Claim {
  readonly payloadHash: string;
  readonly expiresAtEpoch: number;
  /** Epoch ms after which a record still in progress is taken over (its run crashed); undefined: never. */
  readonly inProgressExpiry: number | undefined;
}

/**
 * Takes the key for a run: creates the record `INPROGRESS`, or overwrites one that has expired or whose run
 * ended without a word. Answers undefined when taken, or the record that refused it (one round trip either way:
 * `ReturnValuesOnConditionCheckFailure` brings it back).
 */
export async function claimIdempotencyKey(
  key: ItemKey,
  claim: Claim,
  nowMs: number,
): Promise<IdempotencyRecord | undefined> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key,
          [TTL_ATTRIBUTE]: claim.expiresAtEpoch,
          idempotency_status: IN_PROGRESS,
          in_progress_expiry: claim.inProgressExpiry,
          payload_hash: claim.payloadHash,
        },
        ConditionExpression:
          'attribute_not_exists(#id) OR #expiry < :now OR ' +
          '(#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
        ExpressionAttributeNames: {
          '#id': 'pk',
          '#expiry': TTL_ATTRIBUTE,
          '#in_progress_expiry': 'in_progress_expiry',
          '#status': 'idempotency_status',
        },
        ExpressionAttributeValues: {
          ':now': nowMs / 1000,
          ':now_in_millis': nowMs,
          ':inprogress': IN_PROGRESS,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return undefined;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // The document client does not unmarshall the item an error carries.
    const raw = (error as { Item?: Record<string, AttributeValue> }).Item;
    const item = raw ? unmarshall(raw) : {};
    return {
      status: text(item.idempotency_status),
      expiresAtEpoch: numeric(item[TTL_ATTRIBUTE]),
      inProgressExpiry: numeric(item.in_progress_expiry),
      payloadHash: text(item.payload_hash),
      response: item.response_data,
    };
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const numeric = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Keeps the run's answer (plain JSON: strings, numbers, booleans, lists, maps) for the key's lifetime. */
export async function completeIdempotencyKey(
  key: ItemKey,
  completed: { readonly payloadHash: string; readonly expiresAtEpoch: number; readonly response: unknown },
): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression:
        'SET #expiry = :expiry, #status = :status, #response_data = :response_data, #validation_key = :validation_key',
      ExpressionAttributeNames: {
        '#expiry': TTL_ATTRIBUTE,
        '#status': 'idempotency_status',
        '#response_data': 'response_data',
        '#validation_key': 'payload_hash',
      },
      ExpressionAttributeValues: {
        ':expiry': completed.expiresAtEpoch,
        ':status': COMPLETED,
        ':response_data': completed.response,
        ':validation_key': completed.payloadHash,
      },
    }),
  );
}

/** Forgets the key (the run's answer must not be kept), so a retry runs at once. */
export async function releaseIdempotencyKey(key: ItemKey): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: key }));
}
