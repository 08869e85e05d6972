import { authorComments } from '../../db/keys/feeds.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import { type KeyedRead, readTogether } from '../../db/read-together.ts';
import { type Caller, canSeeAllFeeds, isOwner } from '../auth/index.ts';
import { findActiveMembershipSpaceIds } from '../spaces/index.ts';
import { type CommentItem, CommentItemSchema } from './comment-item.ts';
import { type CommentResponse, commentRowFields } from './comment-mapper.ts';
import { allOf, countersBySpace, statusIs, sumOf, visibleIn, visibleMemberSpaces } from './feed-filters.ts';
import { type Counters, type FeedFilter, userStatsRead } from './feed-repository.ts';
import { findPostsByIds, postsByIdsRead } from './post-lookups.ts';
import type { PostItem } from './post-item.ts';

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
 * applies, so page 1 costs one page at any size. `alongside` (the profile's user item) is read in the same
 * BatchGetItem as the author's counters, and its answer returned beside the page.
 *
 * Page 1 without a cursor (the common request) is read in two rounds: the page Query first, with the visibility
 * the counters most often give (everything for the author and moderators; else public feeds only), then one
 * BatchGetItem of the counters, `alongside` and the page's posts. The page stands when the counters confirm that
 * visibility (no members-only comment in a space the caller belongs to: the filters are then the same, so is its
 * cursor); otherwise it is read again with the right filter (the caller's memberships, then the Query and the
 * posts: three rounds more, the rare case of a member reading a fellow member's profile). Other pages need the
 * total before the Query (to skip to the page), so they read the counters first.
 */
export async function listAuthorComments<T>(
  caller: Caller,
  authorId: number,
  paging: { page: number; perPage: number; cursor?: string | undefined },
  alongside: KeyedRead<T>,
): Promise<AuthorCommentPage & { alongside: T }> {
  const seesAll = isOwner(caller, authorId) || canSeeAllFeeds(caller);
  const pageOf = (total: number | undefined, visibility: FeedFilter | undefined) =>
    queryPage({
      partition: authorComments(authorId),
      schema: CommentItemSchema,
      ascending: false,
      page: paging.page,
      perPage: paging.perPage,
      cursor: paging.cursor,
      total,
      filter: allOf(statusIs('published'), onFeeds, visibility),
    });
  const postIdsOf = (page: PageResult<CommentItem>) => page.items.map((comment) => comment.post_id);

  if (paging.page === 1 && paging.cursor === undefined) {
    const guessed = seesAll ? undefined : visibleIn([]);
    const first = await pageOf(undefined, guessed);
    const [stats, extra, posts] = await readTogether([
      userStatsRead(authorId),
      alongside,
      postsByIdsRead(postIdsOf(first)),
    ] as const);
    const { total, visibility } = await totalAndVisibility(caller, stats, seesAll);
    if (sameFilter(visibility, guessed)) {
      // A page past the total reads nothing (as queryPage answers when told the total first).
      const page = total === 0 ? { items: [], nextCursor: null } : first;
      return { ...toPage(page, posts, total), alongside: extra };
    }
    const found = await pageOf(total, visibility);
    return { ...toPage(found, await findPostsByIds(postIdsOf(found)), total), alongside: extra };
  }

  const [stats, extra] = await readTogether([userStatsRead(authorId), alongside] as const);
  const { total, visibility } = await totalAndVisibility(caller, stats, seesAll);
  const found = await pageOf(total, visibility);
  return { ...toPage(found, await findPostsByIds(postIdsOf(found)), total), alongside: extra };
}

/** The exact total the caller may see, and the filter that shows the same comments (undefined: all of them). */
async function totalAndVisibility(
  caller: Caller,
  stats: Counters,
  seesAll: boolean,
): Promise<{ total: number; visibility: FeedFilter | undefined }> {
  const members = countersBySpace(stats, 'comments_published_members:');
  const everyone = stats.comments_published_public ?? 0;
  if (seesAll) return { total: everyone + sumOf(members), visibility: undefined };
  const memberships =
    members.size === 0 ? new Set<number>() : new Set(await findActiveMembershipSpaceIds(caller.id));
  const spaceIds = visibleMemberSpaces(members, memberships);
  return { total: everyone + sumOf(members, spaceIds), visibility: visibleIn(spaceIds) };
}

const sameFilter = (a: FeedFilter | undefined, b: FeedFilter | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

function toPage(
  found: PageResult<CommentItem>,
  posts: ReadonlyMap<number, PostItem>,
  total: number,
): AuthorCommentPage {
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
