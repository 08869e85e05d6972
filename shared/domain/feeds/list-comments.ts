import type { Caller } from '../auth/index.ts';
import { type CommentResponse, toCommentResponses } from './comment-mapper.ts';
import { findLikedCommentIds, queryFeedCommentPage } from './comment-repository.ts';
import { loadVisibleFeed } from './feed-access.ts';

/** The query of `GET /feeds/{id}/comments` (and of a lesson's comments) as the contract delivers it. */
export interface ListCommentsInput {
  readonly page: number;
  readonly per_page: number;
  readonly cursor?: string | undefined;
}

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
 * the cursor.
 */
export async function listComments(
  caller: Caller,
  feedId: number,
  input: ListCommentsInput,
): Promise<CommentPage> {
  const { post } = await loadVisibleFeed(caller, feedId);
  return listPostComments(caller, post, input);
}

/**
 * One page of a post's published comments (a feed's or a lesson's), oldest first, with the caller's likes, for a
 * caller already allowed to see the post. The total is the post's maintained `comments_count`.
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
