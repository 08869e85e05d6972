import { type ItemKey, indexPartition, type Partition, tablePartition } from '../partition.ts';
import { type ShardedAggregate, shardedAggregate, spreadOver } from '../sharded-counters.ts';
import { pad } from './sort.ts';

/**
 * Feeds (posts), their topic links, comments and reactions. Every list is newest first by `timeSort(createdAt, id)`
 * unless noted.
 */
export const postKey = (postId: number): ItemKey => ({ pk: `POST#${postId}`, sk: 'POST' });
/**
 * The post's listing entry, in its own partition: a small item that carries the post's index keys (the lists
 * below) and the few attributes their filters need, so the post item itself carries none. Comments and likes move
 * the post's counters without rewriting any list's index entry, and a list page reads small entries, then the
 * posts from their own partitions.
 */
export const postListingKey = (postId: number): ItemKey => ({ pk: `POST#${postId}`, sk: 'LISTING' });
/** GSI1 on the listing: feeds of an author (any status). */
export const authorPosts = (userId: number): Partition => indexPartition('GSI1', `USER#${userId}#POSTS`);
/**
 * GSI2 on the listing: published feeds of one space. Global feeds (no space) have no such list: no route pages
 * them apart from the timeline, and a partition without a space id in its key would take every one of them.
 */
export const spacePosts = (spaceId: number): Partition => indexPartition('GSI2', `SPACE#${spaceId}#POSTS`);
/**
 * The sparse timeline of every published feed is spread over this many GSI3 partitions (`FEEDS#<shard>`, the
 * feed's id choosing its shard), so no one index partition takes every post; a page merges the shards.
 */
export const TIMELINE_SHARDS = 4;
/** GSI3 on the listing: one shard of the timeline. */
export const postTimelineShard = (shard: number): Partition => indexPartition('GSI3', `FEEDS#${shard}`);
/** Every shard of the timeline (a page reads them all, in parallel). */
export const postTimelineShards = (): Partition[] =>
  Array.from({ length: TIMELINE_SHARDS }, (_, shard) => postTimelineShard(shard));
/** The timeline shard that lists one feed. */
export const postTimelineOf = (postId: number): Partition =>
  postTimelineShard(spreadOver(postId, TIMELINE_SHARDS));

/**
 * The marker of a deleted feed whose likes and comments are still being removed (by the `feeds` worker), in the
 * post's partition: a retried delete that finds it sends the work again.
 */
export const postSweepKey = (postId: number): ItemKey => ({ pk: `POST#${postId}`, sk: 'SWEEP' });

/** The feed ↔ topic link, in the post's partition; GSI3 lists the published feeds carrying a topic. */
export const postTopicKey = (postId: number, topicId: number): ItemKey => ({
  pk: `POST#${postId}`,
  sk: `TOPIC#${pad(topicId)}`,
});
/** GSI3 on the link: published feeds carrying a topic (`GET /feeds?topics=`). */
export const topicPosts = (topicId: number): Partition => indexPartition('GSI3', `TOPIC#${topicId}#POSTS`);
/** GSI3 on the link: the other feeds carrying a topic (drafts, pending, scheduled); deleting a topic reads both. */
export const topicUnlistedPosts = (topicId: number): Partition =>
  indexPartition('GSI3', `TOPIC#${topicId}#POSTS#UNLISTED`);

export const commentKey = (commentId: number): ItemKey => ({ pk: `COMMENT#${commentId}`, sk: 'COMMENT' });
/** GSI1: comments of an author. */
export const authorComments = (userId: number): Partition =>
  indexPartition('GSI1', `USER#${userId}#COMMENTS`);
/** GSI2: comments of a feed (oldest first when read forward). */
export const postComments = (postId: number): Partition => indexPartition('GSI2', `POST#${postId}#COMMENTS`);
/** GSI3: comments on any lesson of a course (course administration). */
export const courseComments = (courseId: number): Partition =>
  indexPartition('GSI3', `COURSE#${courseId}#COMMENTS`);

/** One user's reaction on a post, in the post's partition (one per user: the key is the uniqueness guard). */
export const postReactionKey = (postId: number, userId: number): ItemKey => ({
  pk: `POST#${postId}`,
  sk: `REACTION#${pad(userId)}`,
});
/** The reactions on one post (deleting the post removes them). */
export const postReactions = (postId: number): Partition => tablePartition(`POST#${postId}`, 'REACTION#');
/** GSI1 on a post's reaction: who reacted to a post, newest first (`GET /feeds/{id}/reactions`). */
export const postReactionsByTime = (postId: number): Partition =>
  indexPartition('GSI1', `POST#${postId}#REACTIONS`);
/** One user's reaction on a comment, in the comment's partition. */
export const commentReactionKey = (commentId: number, userId: number): ItemKey => ({
  pk: `COMMENT#${commentId}`,
  sk: `REACTION#${pad(userId)}`,
});
/** The reactions on one comment. */
export const commentReactions = (commentId: number): Partition =>
  tablePartition(`COMMENT#${commentId}`, 'REACTION#');

/**
 * Published-feed totals of the unfiltered timeline, maintained in the transaction of every feed write that changes
 * them: `public` (global feeds and feeds of public spaces) and `members:<spaceId>` per private or secret space.
 */
export const feedStatsKey = (): ItemKey => ({ pk: 'FEEDS', sk: 'STATS' });
/**
 * The timeline totals are written by every published feed's transaction, so they are spread over 4 shards (the
 * feed's id choosing its shard): 4 × 1 000 writes/s. Every `GET /feeds` reads them, so they are kept in 4 replicas
 * (`FEEDS#R<r>#S<n>` / `STATS`; a feed write moves its shard in each, in its transaction) and a read sums one
 * replica's 4 shards, taken at random: each item takes a quarter of the reads, and a read costs 4 items.
 */
export const FEED_STATS_SHARDS = 4;
export const FEED_STATS_REPLICAS = 4;
export const feedStats = (): ShardedAggregate =>
  shardedAggregate(feedStatsKey(), FEED_STATS_SHARDS, FEED_STATS_REPLICAS);

/**
 * The unpublished feeds of every author, one list per status (`draft`, `pending`, `scheduled`), for community
 * moderators' `GET /feeds?status=`: sparse GSI3 partitions `FEEDS#<STATUS>#<shard>` on the listing entries, spread
 * like the timeline (the feed's id chooses the shard) so no one index partition takes every draft of the site. A
 * listing entry is on the timeline while published and on its status's list otherwise, never on both.
 */
export const STATUS_LIST_SHARDS = 4;
/** GSI3 on the listing: one shard of the unpublished feeds in one status. */
export const unpublishedPostsShard = (status: string, shard: number): Partition =>
  indexPartition('GSI3', `FEEDS#${status.toUpperCase()}#${shard}`);
/** Every shard of one status's list (a page reads and merges them all). */
export const unpublishedPostsShards = (status: string): Partition[] =>
  Array.from({ length: STATUS_LIST_SHARDS }, (_, shard) => unpublishedPostsShard(status, shard));
/** The shard of its status's list that lists one unpublished feed. */
export const unpublishedPostsOf = (postId: number, status: string): Partition =>
  unpublishedPostsShard(status, spreadOver(postId, STATUS_LIST_SHARDS));

/**
 * Unpublished-feed totals of the status lists (`unpublishedPostsShards`): one counter per status (`draft`,
 * `pending`, `scheduled`), moved in the transaction of every feed write that enters or leaves the status, spread
 * over 4 shards (`FEEDSTATUS#S<n>` / `STATS`, the feed's id choosing its shard) and summed on read.
 */
export const feedStatusStatsKey = (): ItemKey => ({ pk: 'FEEDSTATUS', sk: 'STATS' });
export const feedStatusStats = (): ShardedAggregate => shardedAggregate(feedStatusStatsKey(), 4);

/**
 * Published-feed totals of `GET /feeds?topics=`, one item per topic: one counter per (topic set, visibility) pair,
 * named `<sorted topic ids joined by .>|<p|m><spaceId>` (p: visible to everyone, m: members of that space only;
 * space 0 is the global feed). A feed adds 1 to its own pair on the item of each of its topics, so a filter on
 * several topics sums each distinct pair once: an exact union count read in one BatchGetItem.
 */
export const topicFeedStatsKey = (topicId: number): ItemKey => ({
  pk: `TOPIC#${topicId}`,
  sk: 'FEEDSTATS',
});
