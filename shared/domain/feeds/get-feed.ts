import { readTogether } from '../../db/read-together.ts';
import type { Caller } from '../auth/index.ts';
import { topicsByIdsRead } from '../topics/index.ts';
import { usersByIdsRead } from '../users/index.ts';
import { existingFeed, feedMembershipRead, feedRead, visibleFeed } from './feed-access.ts';
import { type FeedResponse, toFeedResponse } from './feed-mapper.ts';
import { likedPostsRead } from './feed-repository.ts';

/**
 * `GET /feeds/{id}`: one feed the caller may see (404 `not_found` otherwise, so a hidden feed and an unknown id
 * answer alike), with its topics resolved against the topics that exist and the caller's like. Two rounds of one
 * BatchGetItem each (read-together.ts): the feed and the caller's like of it, strongly consistent (a single read
 * reflects every write completed before it); then what follows from the feed: the caller's membership of its space
 * (visibility), its author and its topics.
 */
export async function getFeed(caller: Caller, feedId: number): Promise<{ feed: FeedResponse }> {
  const [found, liked] = await readTogether([
    feedRead(feedId, { consistent: true }),
    likedPostsRead([feedId], caller.id),
  ]);
  const post = existingFeed(found);
  const [membership, authors, topics] = await readTogether([
    feedMembershipRead(caller, post),
    usersByIdsRead([post.user_id]),
    topicsByIdsRead(post.topic_ids),
  ]);
  visibleFeed(caller, post, membership);
  const context = { authors, topics: new Map(topics.map((topic) => [topic.id, topic])), liked };
  return { feed: toFeedResponse(post, context) };
}
