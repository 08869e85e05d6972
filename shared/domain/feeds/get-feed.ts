import type { Caller } from '../auth/index.ts';
import { loadVisibleFeed } from './feed-access.ts';
import { type FeedResponse, toFeedResponses } from './feed-mapper.ts';
import { findLikedPostIds } from './feed-repository.ts';

/**
 * `GET /feeds/{id}`: one feed the caller may see (404 `not_found` otherwise, so a hidden feed and an unknown id
 * answer alike), with its topics resolved against the topics that exist and the caller's like.
 */
export async function getFeed(caller: Caller, feedId: number): Promise<{ feed: FeedResponse }> {
  const [{ post }, liked] = await Promise.all([
    loadVisibleFeed(caller, feedId),
    findLikedPostIds([feedId], caller.id),
  ]);
  const [feed] = await toFeedResponses([post], liked);
  return { feed: feed as FeedResponse };
}
