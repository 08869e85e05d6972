import * as v from 'valibot';
import { postKey, postTopicKey, topicPosts, topicUnlistedPosts } from '../../db/keys/feeds.ts';
import type { Partition } from '../../db/partition.ts';
import { queryAll, queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  MAX_TRANSACTION_ACTIONS,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';
import { topicPostsCountActions } from './topic-repository.ts';
import { topicPostCounts } from '../../db/keys/topics.ts';

/**
 * The feed ↔ topic links of one topic, as a topic delete sees them (ACCESS_PATTERNS.md, "Topics", DELETE). A link
 * is listed under the topic's published feeds (`topicPosts`) or its other feeds (`topicUnlistedPosts`); detaching
 * deletes the link and removes the id from the post's `topic_ids` number set (`DELETE`, no read of the post).
 */

const LinkSchema = v.object({ post_id: v.pipe(v.number(), v.integer()) });

/** Links per transaction: two actions each, plus the topic's `posts_count` shards (at most one update each). */
const LINKS_PER_BATCH = Math.floor((MAX_TRANSACTION_ACTIONS - topicPostCounts(0).shards) / 2);

interface LinkList {
  readonly partition: Partition;
  /** Links of published feeds: each counts in the topic's `posts_count`. */
  readonly published: boolean;
}

const linkLists = (topicId: number): LinkList[] => [
  { partition: topicPosts(topicId), published: true },
  { partition: topicUnlistedPosts(topicId), published: false },
];

/** Whether any link of the topic is listed (one Query of at most one key per list). */
export async function hasTopicLinks(topicId: number): Promise<boolean> {
  for (const { partition } of linkLists(topicId)) {
    if ((await queryItems(partition, LinkSchema, { limit: 1 })).length > 0) return true;
  }
  return false;
}

/**
 * Detaches the topic from every feed its link lists name, page by page (≤ 49 links per transaction). With
 * `countPosts` (the topic still exists), each published link removed also takes one off the topic's
 * `posts_count` in the same transaction, so the count stays exact if the delete stops half-way. Answers how many
 * links were removed. A link is removed only if it is still in the list it was read from: one that moved (its
 * feed was published or unpublished meanwhile) is left for the next sweep of the other list.
 */
export async function detachTopicFromFeeds(topicId: number, countPosts: boolean): Promise<number> {
  let removed = 0;
  for (const list of linkLists(topicId)) {
    for await (const links of queryAll(list.partition, LinkSchema, { pageSize: LINKS_PER_BATCH })) {
      removed += await detachBatch(
        topicId,
        list,
        links.map((link) => link.post_id),
        countPosts,
      );
    }
  }
  return removed;
}

async function detachBatch(
  topicId: number,
  list: LinkList,
  postIds: readonly number[],
  countPosts: boolean,
): Promise<number> {
  const counted = countPosts && list.published;
  const actions = postIds.flatMap((postId) => linkRemoval(topicId, postId, list.partition));
  if (counted) actions.push(...topicPostsCountActions(topicId, -1, postIds));
  if ((await transactWriteIfConditionsHold(actions)).written) return postIds.length;
  // Something changed under the batch (a feed deleted or re-published, the topic deleted): one link at a time.
  let removed = 0;
  for (const postId of postIds) {
    if (await detachOne(topicId, postId, list, counted)) removed++;
  }
  return removed;
}

async function detachOne(
  topicId: number,
  postId: number,
  list: LinkList,
  counted: boolean,
): Promise<boolean> {
  const [link, post] = linkRemoval(topicId, postId, list.partition) as [TransactAction, TransactAction];
  // One feed: one shard, so the count is one action (index 2).
  const withCount = counted ? topicPostsCountActions(topicId, -1, [postId]) : [];
  const outcome = await transactWriteIfConditionsHold([link, post, ...withCount]);
  if (outcome.written) return true;
  // The link is gone or moved to the other list: nothing to do here.
  if (outcome.failed.includes(0)) return false;
  // The topic is gone (deleted concurrently): there is no count left to keep.
  if (outcome.failed.includes(2)) return detachOne(topicId, postId, list, false);
  // The post is gone but its link is not (a feed delete that did not remove it): drop the link alone.
  return (await transactWriteIfConditionsHold([link, ...withCount])).written;
}

/** Delete the link (while it is still in `list`) and take the topic out of the post's `topic_ids` set. */
function linkRemoval(topicId: number, postId: number, list: Partition): TransactAction[] {
  return [
    deleteAction(postTopicKey(postId, topicId), {
      ConditionExpression: 'attribute_exists(pk) AND #listed = :list',
      ExpressionAttributeNames: { '#listed': list.partitionKey },
      ExpressionAttributeValues: { ':list': list.value },
    }),
    updateAction(postKey(postId), {
      UpdateExpression: 'DELETE topic_ids :topic',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':topic': new Set([topicId]) },
    }),
  ];
}
