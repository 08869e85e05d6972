/**
 * The feeds domain's public surface: what other domains may use (README, import rules). Use cases, read models,
 * lookups and the write actions others compose; never its repositories or stored-item schemas
 * (test/unit/layering.test.ts).
 */
export type { CommentItem, CommentStatus } from './comment-item.ts';
export type { FeedStatus, PostItem, PostType } from './post-item.ts';
export { COMMENT_POINTS, commentCounts, commentPoints } from './comment-counts.ts';
export { commentAggregates } from './comment-aggregates.ts';
export { findVisibleContent } from './content-visibility.ts';
export { FEED_POINTS, type FeedAggregate, feedAggregates } from './feed-aggregates.ts';
export { type AuthorCommentPage, type AuthorCommentRow, listAuthorComments } from './list-author-comments.ts';
export { findPostById, findPostsByIds, postRead, postsByIdsRead } from './post-lookups.ts';
export {
  commentRead,
  findCommentById,
  findCommentsByIds,
  findCourseCommentPage,
  findLikedCommentIds,
} from './comment-lookups.ts';
export { type CommentResponse, toCommentResponse, toCommentResponses } from './comment-mapper.ts';
export { listPostComments } from './list-comments.ts';
export { mentionRecipients } from './mention-recipients.ts';
export {
  commentCreationActions,
  type NewCommentWrites,
  newCommentWrites,
  pendingCommentActions,
} from './comment-write-actions.ts';
export { type NewPostWrites, newPostWrites } from './post-write-actions.ts';
export { feedCommentsAddedAction } from './comments-added-action.ts';
export { messageRewriteAction } from './message-rewrite-action.ts';
export { type FeedStorageReport, upgradeFeedStorage } from './upgrade-feed-storage.ts';
