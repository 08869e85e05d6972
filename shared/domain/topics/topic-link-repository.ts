import * as v from 'valibot';
import { postKey, postTopicKey, topicPosts, topicUnlistedPosts } from '../../db/keys/feeds.ts';
import type { Partition } from '../../db/partition.ts';
import { topicDetachKey } from '../../db/keys/topics.ts';
import { getItem, queryAll, queryItems } from '../../db/reads.ts';
import {
  deleteAction,
  MAX_TRANSACTION_ACTIONS,
  type TransactAction,
  transactWriteIfConditionsHold,
  updateAction,
} from '../../db/transact.ts';

/**
 * The feed ↔ topic links of a deleted topic, as the `topics` worker detaches them (ACCESS_PATTERNS.md, "Topics",
 * DELETE). A link is listed under the topic's published feeds (`topicPosts`) or its other feeds
 * (`topicUnlistedPosts`); detaching deletes the link and removes the id from the post's `topic_ids` number set
 * (`DELETE`, no read of the post). No counter moves: the feed stays counted under its stored topic set
 * (`topic_signature`) on its topics' feed totals items, the deleted topic's included, which no list shows.
 */

const LinkSchema = v.object({ post_id: v.pipe(v.number(), v.integer()) });

/** Links per transaction: two actions each. */
const LINKS_PER_BATCH = Math.floor(MAX_TRANSACTION_ACTIONS / 2);

const linkLists = (topicId: number): Partition[] => [topicPosts(topicId), topicUnlistedPosts(topicId)];

/** Whether any link of the topic is listed (one Query of at most one key per list). */
export async function hasTopicLinks(topicId: number): Promise<boolean> {
  for (const partition of linkLists(topicId)) {
    if ((await queryItems(partition, LinkSchema, { limit: 1 })).length > 0) return true;
  }
  return false;
}

/**
 * Detaches the deleted topic from the feeds its link lists name, page by page (≤ 50 links per transaction), until
 * `budget` links were handled. Answers how many links were removed and whether the budget ran out first (links
 * may remain). A link is removed only if it is still in the list it was read from: one that moved (its feed was
 * published or unpublished meanwhile) is left for the next pass over the other list.
 */
export async function detachTopicFromFeeds(
  topicId: number,
  budget: number,
): Promise<{ removed: number; more: boolean }> {
  let removed = 0;
  let handled = 0;
  for (const list of linkLists(topicId)) {
    for await (const links of queryAll(list, LinkSchema, { pageSize: LINKS_PER_BATCH })) {
      if (handled >= budget) return { removed, more: true };
      handled += links.length;
      removed += await detachBatch(
        topicId,
        list,
        links.map((link) => link.post_id),
      );
    }
  }
  return { removed, more: false };
}

async function detachBatch(topicId: number, list: Partition, postIds: readonly number[]): Promise<number> {
  const actions = postIds.flatMap((postId) => linkRemoval(topicId, postId, list));
  if ((await transactWriteIfConditionsHold(actions)).written) return postIds.length;
  // Something changed under the batch (a feed deleted, published or unpublished): one link at a time.
  let removed = 0;
  for (const postId of postIds) {
    if (await detachOne(topicId, postId, list)) removed++;
  }
  return removed;
}

async function detachOne(topicId: number, postId: number, list: Partition): Promise<boolean> {
  const [link, post] = linkRemoval(topicId, postId, list) as [TransactAction, TransactAction];
  const outcome = await transactWriteIfConditionsHold([link, post]);
  if (outcome.written) return true;
  // The link is gone or moved to the other list: nothing to do here.
  if (outcome.failed.includes(0)) return false;
  // The post is gone but its link is not (a feed delete that did not remove it): drop the link alone.
  return (await transactWriteIfConditionsHold([link])).written;
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

const MarkerSchema = v.object({ topic_id: v.pipe(v.number(), v.integer()) });

/** Whether a deleted topic is still being detached (its marker, put by the delete, is there). */
export async function isTopicDetachPending(topicId: number): Promise<boolean> {
  return (await getItem(topicDetachKey(topicId), MarkerSchema, { consistent: true })) !== undefined;
}

/** Ends a detach: its marker goes once a pass over the topic's link lists found nothing. */
export async function removeTopicDetachMarker(topicId: number): Promise<void> {
  await transactWriteIfConditionsHold([deleteAction(topicDetachKey(topicId))]);
}
