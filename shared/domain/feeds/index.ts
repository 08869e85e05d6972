/** The feeds domain's public surface: what other domains may use (README, import rules). */
export * from './comment-item.ts';
export { type FeedAggregate, feedAggregates } from './feed-aggregates.ts';
export * from './post-item.ts';
export { type CommentResponse, toCommentResponse, toCommentResponses } from './comment-mapper.ts';
export {
  commentCreationActions,
  findCommentById,
  findLikedCommentIds,
  queryFeedCommentPage,
  writeCommentActions,
} from './comment-repository.ts';
