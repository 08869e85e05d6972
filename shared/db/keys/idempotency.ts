import type { ItemKey } from '../partition.ts';

/**
 * Idempotency records (the replay store of `Idempotency-Key`, shared/db/idempotency-store.ts). One partition per
 * caller, so no partition takes every member's writes and one caller's keys can never name another's record.
 * The sort key is `<key prefix>#<hash of the client's key>`; the prefix is the caller's too.
 */
export const idempotencyPartitionKey = (callerId: number): string => `IDEMPOTENCY#${callerId}`;

/** The prefix before the hashed client key in the sort key. */
export const idempotencyKeyPrefix = (callerId: number): string => `IDEMKEY#${callerId}`;

/** The record of one hashed client key (`hashedKey` is its base64 MD5). */
export const idempotencyRecordKey = (callerId: number, hashedKey: string): ItemKey => ({
  pk: idempotencyPartitionKey(callerId),
  sk: `${idempotencyKeyPrefix(callerId)}#${hashedKey}`,
});
