import { readTogether } from '../../db/read-together.ts';
import type { PageResult } from '../../db/query-page.ts';
import type { Caller } from '../auth/index.ts';
import { type UserItem, usersByIdsRead } from '../users/index.ts';
import type { CommentItem } from './comment-item.ts';
import { type CommentResponse, toCommentResponse, toCommentResponses } from './comment-mapper.ts';
import { findLikedCommentIds, likedCommentsRead } from './comment-lookups.ts';
import { queryFeedCommentPage } from './comment-repository.ts';
import { existingFeed, feedMembershipRead, feedRead, visibleFeed } from './feed-access.ts';

/** The query of `GET /feeds/{id}/comments` as the contract delivers it. */
export interface ListCommentsInput {
  readonly page: number;
  readonly per_page: number;
  readonly cursor?: string | undefined;
}

type Authors = ReadonlyMap<number, UserItem>;

export interface CommentPage {
  readonly items: CommentResponse[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  readonly nextCursor: string | null;
}

/**
 * `GET /feeds/{id}/comments`: the published comments of a feed the caller may see (404 `not_found` otherwise),
 * oldest first so a conversation reads top-down and replies follow what they answer; replies are rows like the
 * others, naming their `parent_id`. The total is the feed's maintained `comments_count`; `next_page_url` carries
 * the cursor. Two rounds: the feed beside the comment page (which is dropped unread if the feed is hidden), then
 * the membership deciding visibility, the caller's likes and the authors in one BatchGetItem. A page jumped to by
 * number (no cursor) is read after the feed instead, as its total bounds the skip.
 */
export async function listComments(
  caller: Caller,
  feedId: number,
  input: ListCommentsInput,
): Promise<CommentPage> {
  const pageOf = (total?: number) =>
    queryFeedCommentPage({
      postId: feedId,
      page: input.page,
      perPage: input.per_page,
      cursor: input.cursor,
      total,
    });
  const direct = input.page === 1 || input.cursor !== undefined;
  const [[found], early] = await Promise.all([
    readTogether([feedRead(feedId)]),
    direct ? pageOf() : undefined,
  ]);
  const feed = existingFeed(found);
  const total = feed.comments_count;
  const answer = (page: PageResult<CommentItem>, liked: ReadonlySet<number>, authors: Authors) => ({
    items: page.items.map((comment) =>
      toCommentResponse(comment, authors.get(comment.user_id), liked.has(comment.id)),
    ),
    total,
    page: input.page,
    perPage: input.per_page,
    nextCursor: page.nextCursor,
  });
  const pageReads = (page: PageResult<CommentItem>) =>
    [
      likedCommentsRead(
        page.items.map((comment) => comment.id),
        caller.id,
      ),
      usersByIdsRead(page.items.map((comment) => comment.user_id)),
    ] as const;

  if (!early) {
    const [membership] = await readTogether([feedMembershipRead(caller, feed)]);
    visibleFeed(caller, feed, membership);
    const page = await pageOf(total);
    const [liked, authors] = await readTogether(pageReads(page));
    return answer(page, liked, authors);
  }
  // As a page past the maintained total reads: empty (decisions.md: 200 with empty data).
  const page = (input.page - 1) * input.per_page >= total ? { items: [], nextCursor: null } : early;
  const [membership, liked, authors] = await readTogether([
    feedMembershipRead(caller, feed),
    ...pageReads(page),
  ]);
  visibleFeed(caller, feed, membership);
  return answer(page, liked, authors);
}

/**
 * One page of a post's published comments for a caller already allowed to see the post (a lesson's, whose access
 * its course decides), oldest first, with the caller's likes. The total is the post's maintained `comments_count`.
 */
export async function listPostComments(
  caller: Caller,
  post: { readonly id: number; readonly comments_count: number },
  input: ListCommentsInput,
): Promise<CommentPage> {
  const page = await queryFeedCommentPage({
    postId: post.id,
    page: input.page,
    perPage: input.per_page,
    cursor: input.cursor,
    total: post.comments_count,
  });
  const liked = await findLikedCommentIds(
    page.items.map((comment) => comment.id),
    caller.id,
  );
  return {
    items: await toCommentResponses(page.items, liked),
    total: post.comments_count,
    page: input.page,
    perPage: input.per_page,
    nextCursor: page.nextCursor,
  };
}
