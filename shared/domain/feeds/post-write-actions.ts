import { type FeedAggregate, feedAggregates } from './feed-aggregates.ts';
import { type PostItem, storedPost, storedPostListing, storedPostTopicLink } from './post-item.ts';

/**
 * What a post (a feed or a lesson) a bulk writer creates whole (the import, the migration) writes, so that writer
 * never builds a post item or key itself: the post item (its counters included), its listing entry, a link per
 * topic, and exactly the aggregates a feed created through the API moves (`feedAggregates`: none for a lesson).
 * The writer puts the items in one transaction or batch with the aggregates' moves.
 */
export interface NewPostWrites {
  readonly post: ReturnType<typeof storedPost>;
  readonly listing: ReturnType<typeof storedPostListing>;
  readonly topicLinks: readonly ReturnType<typeof storedPostTopicLink>[];
  readonly aggregates: readonly FeedAggregate[];
}

export const newPostWrites = (post: PostItem): NewPostWrites => ({
  post: storedPost(post),
  listing: storedPostListing(post),
  topicLinks: post.topic_ids.map((topicId) => storedPostTopicLink(post, topicId)),
  aggregates: feedAggregates(post),
});
