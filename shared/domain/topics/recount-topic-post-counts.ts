import * as v from 'valibot';
import { counterResetAction } from '../../db/counter-reset.ts';
import { topicPosts } from '../../db/keys/feeds.ts';
import { allTopics, topicKey, topicPostCounts } from '../../db/keys/topics.ts';
import { batchGetRawItems, queryAll } from '../../db/reads.ts';
import { shardKeys, shardOf } from '../../db/sharded-counters.ts';
import { existsCheck, transactWriteIfConditionsHold } from '../../db/transact.ts';

export interface TopicPostCountReport {
  topics: number;
  items_written: number;
  changed_meanwhile: number;
}

const TopicIdSchema = v.object({ id: v.pipe(v.number(), v.integer()) });
const LinkSchema = v.object({ post_id: v.pipe(v.number(), v.integer()) });

/**
 * Every topic's `posts_count` shards (`topicPostCounts`) recounted from its published feeds' links (GSI3
 * `topicPosts`, which lists exactly the published feeds carrying the topic) and written as absolute values (the
 * operator's `storage:upgrade`; older stages kept the count on the topic item). Topic by topic, in display order
 * (GSI1 `allTopics`), one link page in memory at a time. A topic's shards are read before its links are counted
 * and the reset is conditioned on them (`counterResetAction`), so a feed write on the topic meanwhile cancels that
 * topic's reset, which the report counts; a second run writes nothing.
 */
export async function recountTopicPostCounts(options: { dryRun: boolean }): Promise<TopicPostCountReport> {
  const report = { topics: 0, items_written: 0, changed_meanwhile: 0 };
  for await (const topics of queryAll(allTopics(), TopicIdSchema)) {
    for (const { id } of topics) {
      report.topics++;
      const aggregate = topicPostCounts(id);
      const keys = shardKeys(aggregate);
      const seen = new Map((await batchGetRawItems(keys, true)).map((item) => [String(item.pk), item]));
      const counts = new Map<number, number>();
      for await (const links of queryAll(topicPosts(id), LinkSchema)) {
        for (const { post_id: postId } of links) {
          const shard = shardOf(aggregate, postId);
          counts.set(shard, (counts.get(shard) ?? 0) + 1);
        }
      }
      const actions = keys.flatMap((key, shard) => {
        const identity = { entity: 'topic_post_count', topic_id: id };
        const action = counterResetAction(
          key,
          { posts_count: counts.get(shard) ?? 0 },
          seen.get(key.pk),
          identity,
        );
        return action ? [action] : [];
      });
      if (actions.length === 0) continue;
      // Shards exist only while their topic does (its delete removes them): a topic deleted meanwhile cancels.
      const exists = existsCheck(topicKey(id));
      if (options.dryRun || (await transactWriteIfConditionsHold([exists, ...actions])).written)
        report.items_written += actions.length;
      else report.changed_meanwhile += actions.length;
    }
  }
  return report;
}
