import * as v from 'valibot';
import { deleteItemsInBatches } from '../../db/batch-write.ts';
import { allTopics, topicPostCounts } from '../../db/keys/topics.ts';
import { itemKeyId } from '../../db/partition.ts';
import { presentKeys, queryAll } from '../../db/reads.ts';
import { shardKeys } from '../../db/sharded-counters.ts';

/**
 * `topic_post_counts` in `storage:upgrade`'s report (its name kept for operators' scripts): `items_written` counts
 * the leftover shard items removed (or, in a dry run, found); `changed_meanwhile` is always 0, as nothing else
 * writes those items any more, so a removal cannot race a request.
 */
export interface TopicPostCountShardsReport {
  topics: number;
  items_written: number;
  changed_meanwhile: number;
}

const TopicIdSchema = v.object({ id: v.pipe(v.number(), v.integer()) });

/**
 * Removes the `posts_count` shards (`topicPostCounts`: `TOPIC#<id>#S<n>` / `POSTCOUNT`) that stages before this
 * version wrote on every feed write (the operator's `storage:upgrade`). Nothing reads or writes them any more: a
 * topic's `posts_count` is the sum of its feed totals item (`topicFeedStatsKey`), which every feed write has moved
 * in its own transaction, and the import with it, since feeds were first stored (the same release as the topic
 * sets' counters), and which no topic delete or detach rewrites. So no stage holds a stale one, and a recount from
 * the links (what this step did when the shards were the count) is not needed: the step only tidies up.
 *
 * Page by page of the topics in display order (GSI1 `allTopics`, no Scan): which of the page's shard keys exist
 * (`presentKeys`: BatchGetItem, 100 keys a call, strongly consistent), then BatchWriteItem deletes of those. A deleted
 * topic's shards went with it (its delete removed them) unless it was deleted between deploying this version and
 * running the step, in which case its four items stay unread. A second run finds nothing and writes nothing.
 */
export async function removeTopicPostCountShards(options: {
  dryRun: boolean;
}): Promise<TopicPostCountShardsReport> {
  const report = { topics: 0, items_written: 0, changed_meanwhile: 0 };
  for await (const topics of queryAll(allTopics(), TopicIdSchema)) {
    report.topics += topics.length;
    const keys = topics.flatMap(({ id }) => shardKeys(topicPostCounts(id)));
    const present = await presentKeys(keys);
    const leftovers = keys.filter((key) => present.has(itemKeyId(key)));
    if (!options.dryRun) await deleteItemsInBatches(leftovers);
    report.items_written += leftovers.length;
  }
  return report;
}
