import { counterResetAction } from '../../db/counter-reset.ts';
import { feedStats, feedStatusStats } from '../../db/keys/feeds.ts';
import { spacePostCounts } from '../../db/keys/spaces.ts';
import { type ItemKey, itemKeyId } from '../../db/partition.ts';
import { batchGetRawItems } from '../../db/reads.ts';
import { type ShardedAggregate, shardKeys } from '../../db/sharded-counters.ts';
import { type TransactAction, transactWriteIfConditionsHold } from '../../db/transact.ts';
import { feedAggregates } from './feed-aggregates.ts';
import type { PostItem } from './post-item.ts';

/**
 * The site-wide feed totals recounted from the feeds themselves (the operator's `storage:upgrade`): the timeline
 * totals (`feedStats`, every replica), the status totals (`feedStatusStats`) and each space's `posts_count`
 * (`spacePostCounts`), each on the shard the feed's id chooses, as `feedAggregates` moves them. Memory holds one
 * counter per shard item, never a feed: it grows with the number of spaces, not of feeds.
 *
 * Written as absolute values by `counterResetAction`. The timeline and status shards are read before the feeds are
 * counted (`FeedTotalsTally.start`), so a feed write that lands meanwhile changes what the reset is conditioned on
 * and cancels it; a space's shards are read when its count is written, so a feed published in it during the count
 * is lost to the reset unless feed writes are paused (README, "Upgrading a stage's storage").
 */
export interface TotalsReport {
  items_written: number;
  changed_meanwhile: number;
}

export interface FeedTotalsReport {
  timeline_totals: TotalsReport;
  status_totals: TotalsReport;
  space_post_counts: TotalsReport;
}

type Counts = Record<string, number>;

export class FeedTotalsTally {
  readonly #counts = new Map<string, Counts>();
  readonly #spaces = new Set<number>();
  #seen = new Map<string, Record<string, unknown>>();

  /** Reads the timeline and status shards as they are before any feed is counted. */
  async start(): Promise<void> {
    const keys = [...allReplicaKeys(feedStats()), ...shardKeys(feedStatusStats())];
    this.#seen = new Map((await batchGetRawItems(keys, true)).map((item) => [itemKeyId(item), item]));
  }

  count(post: PostItem): void {
    for (const aggregate of feedAggregates(post)) {
      if (aggregate.kind !== 'timeline' && aggregate.kind !== 'status' && aggregate.kind !== 'space')
        continue;
      const counts = this.#counts.get(itemKeyId(aggregate.key)) ?? {};
      this.#counts.set(itemKeyId(aggregate.key), counts);
      for (const [name, amount] of Object.entries(aggregate.deltas))
        counts[name] = (counts[name] ?? 0) + amount;
    }
    if (post.type !== 'course_lesson' && post.space_id !== null) this.#spaces.add(post.space_id);
  }

  /** Writes the recounts (or, in a dry run, only reports what it would write). */
  async write(options: { dryRun: boolean }): Promise<FeedTotalsReport> {
    const timeline = this.#resets(allReplicaKeys(feedStats()), this.#seen, { entity: 'feed_stats' });
    const status = this.#resets(shardKeys(feedStatusStats()), this.#seen, { entity: 'feed_status_stats' });
    const reports = {
      timeline_totals: await apply([timeline], options),
      status_totals: await apply([status], options),
      space_post_counts: { items_written: 0, changed_meanwhile: 0 },
    };
    for (const spaceId of this.#spaces) {
      const keys = shardKeys(spacePostCounts(spaceId));
      const seen = new Map((await batchGetRawItems(keys, true)).map((item) => [itemKeyId(item), item]));
      const resets = this.#resets(keys, seen, { entity: 'space_post_count', space_id: spaceId });
      const report = await apply([resets], options);
      reports.space_post_counts.items_written += report.items_written;
      reports.space_post_counts.changed_meanwhile += report.changed_meanwhile;
    }
    return reports;
  }

  #resets(
    keys: readonly ItemKey[],
    seen: ReadonlyMap<string, Record<string, unknown>>,
    identity: Record<string, unknown>,
  ): TransactAction[] {
    return keys.flatMap((key) => {
      const action = counterResetAction(
        key,
        this.#counts.get(itemKeyId(key)) ?? {},
        seen.get(itemKeyId(key)),
        identity,
      );
      return action ? [action] : [];
    });
  }
}

/** Every shard of every replica (all of them hold the same counts). */
const allReplicaKeys = (aggregate: ShardedAggregate): ItemKey[] =>
  Array.from({ length: aggregate.replicas }, (_, replica) => shardKeys(aggregate, replica)).flat();

/** Each group in one transaction (the replicas of the timeline totals change together or not at all). */
async function apply(groups: TransactAction[][], options: { dryRun: boolean }): Promise<TotalsReport> {
  const report = { items_written: 0, changed_meanwhile: 0 };
  for (const actions of groups) {
    if (actions.length === 0) continue;
    if (!options.dryRun && !(await transactWriteIfConditionsHold(actions)).written)
      report.changed_meanwhile += actions.length;
    else report.items_written += actions.length;
  }
  return report;
}
