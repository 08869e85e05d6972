import { type ItemKey, indexPartition, type Partition, tablePartition } from '../partition.ts';
import { pad } from './sort.ts';

/**
 * Feeds (posts), their topic links, comments and reactions. Every list is newest first by `timeSort(createdAt, id)`
 * unless noted.
 */
export const postKey = (postId: number): ItemKey => ({ pk: `POST#${postId}`, sk: 'POST' });
/** GSI1: feeds of an author (any status). */
export const authorPosts = (userId: number): Partition => indexPartition('GSI1', `USER#${userId}#POSTS`);
/** GSI2: published feeds of a space, or of the global feed (space 0). */
export const spacePosts = (spaceId: number | null): Partition =>
  indexPartition('GSI2', `SPACE#${spaceId ?? 0}#POSTS`);
/** GSI3 on the post item: every published feed (sparse timeline). */
export const postTimeline = (): Partition => indexPartition('GSI3', 'FEEDS');

/** The feed ↔ topic link, in the post's partition; GSI3 lists the published feeds carrying a topic. */
export const postTopicKey = (postId: number, topicId: number): ItemKey => ({
  pk: `POST#${postId}`,
  sk: `TOPIC#${pad(topicId)}`,
});
/** The topic links of one post. */
export const postTopicLinks = (postId: number): Partition => tablePartition(`POST#${postId}`, 'TOPIC#');
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
 * Published-feed totals of `GET /feeds?topics=`, one item per topic: one counter per (topic set, visibility) pair,
 * named `<sorted topic ids joined by .>|<p|m><spaceId>` (p: visible to everyone, m: members of that space only;
 * space 0 is the global feed). A feed adds 1 to its own pair on the item of each of its topics, so a filter on
 * several topics sums each distinct pair once: an exact union count read in one BatchGetItem.
 */
export const topicFeedStatsKey = (topicId: number): ItemKey => ({
  pk: `TOPIC#${topicId}`,
  sk: 'FEEDSTATS',
});
