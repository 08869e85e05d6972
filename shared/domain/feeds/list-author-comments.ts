import { authorComments } from '../../db/keys/feeds.ts';
import { queryPage } from '../../db/query-page.ts';
import { type Caller, canSeeAllFeeds, isOwner } from '../auth/index.ts';
import { findActiveMembershipSpaceIds } from '../spaces/index.ts';
import { type CommentItem, CommentItemSchema } from './comment-item.ts';
import { type CommentResponse, commentRowFields } from './comment-mapper.ts';
import { allOf, countersBySpace, statusIs, sumOf, visibleIn, visibleMemberSpaces } from './feed-filters.ts';
import { type FeedFilter, findPostsByIds, findUserStats } from './feed-repository.ts';

/** A row of the member's comment list (decisions.md, `GET /profile/{username}/comments`). */
export interface AuthorCommentRow extends Omit<CommentResponse, 'liked' | 'xprofile'> {
  post: { id: number; title: string; slug: string; space_id: number | null } | null;
}

export interface AuthorCommentPage {
  readonly rows: AuthorCommentRow[];
  readonly total: number;
  readonly nextCursor: string | null;
}

/** Comments on feeds only (lesson comments belong to course administration); `course_id` is stored as null. */
const onFeeds: FeedFilter = {
  expression: 'attribute_type(#course, :null)',
  names: { '#course': 'course_id' },
  values: { ':null': 'NULL' },
};

/**
 * A member's published comments on feeds the caller may see, newest first (G1 of the author's comments, filtered),
 * with the exact total: `comments_published_public` plus `comments_published_members:<sid>` of the caller's
 * members-only spaces (every space for the author and community moderators): the same visibility the filter
 * applies, so page 1 costs one page at any size.
 */
export async function listAuthorComments(
  caller: Caller,
  authorId: number,
  paging: { page: number; perPage: number; cursor?: string | undefined },
): Promise<AuthorCommentPage> {
  const stats = await findUserStats(authorId);
  const members = countersBySpace(stats, 'comments_published_members:');
  const everyone = stats.comments_published_public ?? 0;
  let total: number;
  let visibility: FeedFilter | undefined;
  if (isOwner(caller, authorId) || canSeeAllFeeds(caller)) {
    total = everyone + sumOf(members);
  } else {
    const memberships =
      members.size === 0 ? new Set<number>() : new Set(await findActiveMembershipSpaceIds(caller.id));
    const spaceIds = visibleMemberSpaces(members, memberships);
    total = everyone + sumOf(members, spaceIds);
    visibility = visibleIn(spaceIds);
  }
  const found = await queryPage({
    partition: authorComments(authorId),
    schema: CommentItemSchema,
    ascending: false,
    page: paging.page,
    perPage: paging.perPage,
    cursor: paging.cursor,
    total,
    filter: allOf(statusIs('published'), onFeeds, visibility),
  });
  const posts = await findPostsByIds([...new Set(found.items.map((comment) => comment.post_id))]);
  const rows = found.items.map((comment) => toRow(comment, posts.get(comment.post_id)));
  return { rows, total, nextCursor: found.nextCursor };
}

function toRow(
  comment: CommentItem,
  post: { id: number; title: string; slug: string; space_id: number | null } | undefined,
): AuthorCommentRow {
  return {
    ...commentRowFields(comment),
    post:
      post === undefined
        ? null
        : { id: post.id, title: post.title, slug: post.slug, space_id: post.space_id },
  };
}
