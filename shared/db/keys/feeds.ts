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

/** One user's reaction on a post or a comment, in the object's partition. */
export const reactionKey = (objectType: 'post' | 'comment', objectId: number, userId: number): ItemKey => ({
  pk: `${objectType === 'post' ? 'POST' : 'COMMENT'}#${objectId}`,
  sk: `REACTION#${pad(userId)}`,
});
