import type { CommentItem } from './comment-item.ts';

/**
 * The author's counters one comment contributes to (only published comments are counted). Comments on feeds (not
 * lessons) also count by who may see them, `comments_published_public` or `comments_published_members:<sid>`:
 * the totals of the member's comment list on the profile (list-author-comments.ts).
 */
export const commentCounts = (
  comment: Pick<CommentItem, 'status' | 'space_id' | 'space_visibility' | 'course_id'>,
): Record<string, number> => {
  if (comment.status !== 'published') return {};
  const counts: Record<string, number> = {
    comments_published: 1,
    [`comments_published_space:${comment.space_id ?? 0}`]: 1,
  };
  if (comment.course_id === null) {
    const scope =
      comment.space_visibility === 'public'
        ? 'comments_published_public'
        : `comments_published_members:${comment.space_id ?? 0}`;
    counts[scope] = 1;
  }
  return counts;
};

/** Points a published comment on a feed earns its author, on the user item (README "Profile scores"). */
export const COMMENT_POINTS = 2;
export const commentPoints = (comment: Pick<CommentItem, 'status' | 'course_id'>): number =>
  comment.status === 'published' && comment.course_id === null ? COMMENT_POINTS : 0;
