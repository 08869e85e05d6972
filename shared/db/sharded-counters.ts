import { type CounterDeltas, counterUpdate } from './counters.ts';
import type { ItemKey } from './partition.ts';
import { type KeyedRead, readTogether } from './read-together.ts';
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
 *
 * An aggregate that most requests read (the timeline totals) is also kept in `replicas` identical copies of its
 * shards: shard `n` of replica `r` lives at `{pk: pk + '#R' + r + '#S' + n, sk}`. Every change moves the entity's
 * shard in every replica within its own transaction (all or none), so the replicas never differ once a change has
 * completed; a read sums the shards of one replica taken at random, strongly consistent, so each shard item takes
 * 1/`replicas` of the reads and the total is still exact. (Changing the number of shards or replicas of an
 * aggregate that holds counts is a data migration: the items of the new layout must be filled before use.)
 */
export interface ShardedAggregate {
  readonly key: ItemKey;
  readonly shards: number;
  readonly replicas: number;
}

export const shardedAggregate = (key: ItemKey, shards: number, replicas = 1): ShardedAggregate => {
  if (!Number.isInteger(shards) || shards < 1 || shards > 100)
    throw new Error(`An aggregate takes 1 to 100 shards, not ${shards}`);
  // One read is a BatchGetItem of one replica's shards; one change writes one shard per replica.
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 10)
    throw new Error(`An aggregate takes 1 to 10 replicas, not ${replicas}`);
  return { key, shards, replicas };
};

export const shardKey = (aggregate: ShardedAggregate, shard: number, replica = 0): ItemKey => ({
  pk: `${aggregate.key.pk}${aggregate.replicas === 1 ? '' : `#R${replica}`}#S${shard}`,
  sk: aggregate.key.sk,
});

/** The shards of one replica (replica 0 unless named). */
export const shardKeys = (aggregate: ShardedAggregate, replica = 0): ItemKey[] =>
  Array.from({ length: aggregate.shards }, (_, shard) => shardKey(aggregate, shard, replica));

/** The items an entity's change moves: its shard in every replica (all in the change's transaction). */
export const entityShardKeys = (aggregate: ShardedAggregate, spreadBy: string | number): ItemKey[] =>
  Array.from({ length: aggregate.replicas }, (_, replica) =>
    shardKey(aggregate, shardOf(aggregate, spreadBy), replica),
  );

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

/** The transaction actions that move the aggregate by `deltas` on the shard of `spreadBy`, in every replica. */
export function shardedCounterUpdates(
  aggregate: ShardedAggregate,
  spreadBy: string | number,
  deltas: CounterDeltas | Readonly<Record<string, number>>,
  options: Parameters<typeof counterUpdate>[2] = {},
): TransactAction[] {
  return entityShardKeys(aggregate, spreadBy).map((key) => counterUpdate(key, deltas, options));
}

export type CounterTotals = Readonly<Record<string, number>>;

/**
 * The summed counters of several aggregates in one round trip (BatchGetItem of one random replica's shards of each;
 * up to 100 shard keys per call).
 * Every numeric attribute found on a shard is summed; a counter no shard holds reads as absent (callers default
 * it to 0). The answer follows the order asked.
 */
export function readShardedTotals(
  aggregates: readonly ShardedAggregate[],
  options: { consistent?: boolean } = {},
): Promise<CounterTotals[]> {
  return readTogether(aggregates.map((aggregate) => shardedTotalsRead(aggregate, options)));
}

/** One aggregate's summed counters as a read to send with others in one BatchGetItem (shared/db/read-together.ts). */
export function shardedTotalsRead(
  aggregate: ShardedAggregate,
  options: { consistent?: boolean } = {},
): KeyedRead<CounterTotals> {
  const keys = shardKeys(aggregate, Math.floor(Math.random() * aggregate.replicas));
  return {
    keys,
    ...(options.consistent ? { consistent: true } : {}),
    settle: (found) => {
      const sums: Record<string, number> = {};
      for (const key of keys) {
        for (const [name, value] of Object.entries(found.get(key) ?? {})) {
          if (typeof value === 'number') sums[name] = (sums[name] ?? 0) + value;
        }
      }
      return sums;
    },
  };
}
