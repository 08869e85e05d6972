/** The feeds domain's public surface: what other domains may use (README, import rules). */
export * from './comment-item.ts';
export { COMMENT_POINTS, commentCounts, commentPoints } from './comment-repository.ts';
export { commentAggregates } from './comment-aggregates.ts';
export { findVisibleContent } from './content-visibility.ts';
export { FEED_POINTS, type FeedAggregate, feedAggregates } from './feed-aggregates.ts';
export { type AuthorCommentPage, type AuthorCommentRow, listAuthorComments } from './list-author-comments.ts';
export * from './post-item.ts';
export { findPostsByIds } from './feed-repository.ts';
export { type CommentResponse, toCommentResponse, toCommentResponses } from './comment-mapper.ts';
export { listPostComments } from './list-comments.ts';
export { mentionRecipients } from './mention-recipients.ts';
export {
  commentCreationActions,
  findCommentById,
  findCommentsByIds,
  findLikedCommentIds,
  writeCommentActions,
} from './comment-repository.ts';
export { feedCommentsAddedAction } from './comments-added-action.ts';
export { messageRewriteAction } from './message-rewrite-action.ts';
export { type FeedStorageReport, upgradeFeedStorage } from './upgrade-feed-storage.ts';
