import { postKey } from '../../db/keys/feeds.ts';
import { userKey, userStatsKey } from '../../db/keys/users.ts';
import type { CommentItem } from './comment-item.ts';
import { commentCounts, commentPoints } from './comment-counts.ts';
import type { FeedAggregate } from './feed-aggregates.ts';

/**
 * What one published comment contributes to aggregates, for bulk writers that store comments themselves (the
 * import, the migration) and must move exactly what the comment write path moves: the author's stats
 * (`commentCounts`), the author's `total_points` when the comment earns any, and with `onFeed` its feed's
 * `comments_count` (a writer that puts the feed with its count already, as the migration does, leaves it out).
 * An unpublished comment counts nothing here.
 */
export function commentAggregates(
  comment: Pick<
    CommentItem,
    'post_id' | 'user_id' | 'status' | 'space_id' | 'space_visibility' | 'course_id'
  >,
  options: { readonly onFeed: boolean },
): FeedAggregate[] {
  if (comment.status !== 'published') return [];
  const points = commentPoints(comment);
  return [
    ...(options.onFeed
      ? [
          {
            kind: 'feed' as const,
            key: postKey(comment.post_id),
            deltas: { comments_count: 1 },
            identity: {},
          },
        ]
      : []),
    {
      kind: 'user',
      key: userStatsKey(comment.user_id),
      deltas: commentCounts(comment),
      identity: { entity: 'user_stats', user_id: comment.user_id },
    },
    // The user item exists before any of its comments: nothing to create.
    ...(points > 0
      ? [
          {
            kind: 'points' as const,
            key: userKey(comment.user_id),
            deltas: { total_points: points },
            identity: {},
          },
        ]
      : []),
  ];
}
