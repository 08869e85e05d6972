import { type CounterDeltas, counterUpdate } from './counters.ts';
import { type ItemKey, itemKeyId } from './partition.ts';
import { batchGetRawItems } from './reads.ts';
import type { TransactAction } from './transact.ts';

/**
 * An aggregate that many writers move (timeline totals, a topic's feed count, a busy space's or course's
 * statistics, a member's unread count), spread over `shards` items in different partitions so that no single
 * partition takes every write. Shard `n` of the aggregate whose logical key is `{pk, sk}` lives at
 * `{pk: pk + '#S' + n, sk}`; key modules name the logical key, this module alone derives the shard keys.
 *
 * Invariant: the entity a change is about (a post, a comment, a submission) always moves the same shard
 * (`shardOf(spreadBy)`), so the increment and the later decrement of one entity meet on one item and the
 * `counter >= amount` floor of `counterUpdate` still holds per shard; the sum over shards is therefore never
 * negative either. Reads sum every shard in one BatchGetItem, consistent when the caller needs every completed
 * write, so totals stay exact.
 */
export interface ShardedAggregate {
  readonly key: ItemKey;
  readonly shards: number;
}

export const shardedAggregate = (key: ItemKey, shards: number): ShardedAggregate => {
  if (!Number.isInteger(shards) || shards < 1 || shards > 100)
    throw new Error(`An aggregate takes 1 to 100 shards, not ${shards}`);
  return { key, shards };
};

export const shardKey = (aggregate: ShardedAggregate, shard: number): ItemKey => ({
  pk: `${aggregate.key.pk}#S${shard}`,
  sk: aggregate.key.sk,
});

export const shardKeys = (aggregate: ShardedAggregate): ItemKey[] =>
  Array.from({ length: aggregate.shards }, (_, shard) => shardKey(aggregate, shard));

/** The shard an entity moves: a stable spread of its id, so one entity always lands on one shard. */
export function shardOf(aggregate: ShardedAggregate, spreadBy: string | number): number {
  return spreadOver(spreadBy, aggregate.shards);
}

/**
 * A stable spread of a value over `buckets` (FNV-1a of its text): the same value always gives the same bucket, and
 * ids (sequential or time-ordered) spread evenly. Also used by key modules for sharded index partitions.
 */
export function spreadOver(value: string | number, buckets: number): number {
  let hash = 0x811c9dc5;
  for (const char of String(value)) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % buckets;
}

/** The transaction action that moves the aggregate by `deltas` on the shard of `spreadBy`. */
export function shardedCounterUpdate(
  aggregate: ShardedAggregate,
  spreadBy: string | number,
  deltas: CounterDeltas | Readonly<Record<string, number>>,
  options: Parameters<typeof counterUpdate>[2] = {},
): TransactAction {
  return counterUpdate(shardKey(aggregate, shardOf(aggregate, spreadBy)), deltas, options);
}

export type CounterTotals = Readonly<Record<string, number>>;

/**
 * The summed counters of several aggregates in one round trip (BatchGetItem; up to 100 shard keys per call).
 * Every numeric attribute found on a shard is summed; a counter no shard holds reads as absent (callers default
 * it to 0). The answer follows the order asked.
 */
export async function readShardedTotals(
  aggregates: readonly ShardedAggregate[],
  options: { consistent?: boolean } = {},
): Promise<CounterTotals[]> {
  const owners = new Map<string, number>();
  const keys: ItemKey[] = [];
  aggregates.forEach((aggregate, index) => {
    for (const key of shardKeys(aggregate)) {
      owners.set(itemKeyId(key), index);
      keys.push(key);
    }
  });
  const totals = aggregates.map(() => ({}) as Record<string, number>);
  for (const item of await batchGetRawItems(keys, options.consistent ?? false)) {
    const owner = owners.get(itemKeyId(item));
    if (owner === undefined) continue;
    const sums = totals[owner] as Record<string, number>;
    for (const [name, value] of Object.entries(item)) {
      if (typeof value === 'number') sums[name] = (sums[name] ?? 0) + value;
    }
  }
  return totals;
}
