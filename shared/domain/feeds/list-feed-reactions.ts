import { postReactionsByTime } from '../../db/keys/feeds.ts';
import { type PageResult, queryPage } from '../../db/query-page.ts';
import type { Caller } from '../auth/index.ts';
import { findUsersByIds, type MemberSummary, toMemberSummary } from '../users/index.ts';
import { loadVisibleFeed } from './feed-access.ts';
import { type ReactionItem, ReactionItemSchema } from './reaction-item.ts';

/** The input of `GET /feeds/{id}/reactions` as the contract delivers it. */
export interface ListFeedReactionsInput {
  readonly params: { readonly feed_id: number };
  readonly query: { readonly page: number; readonly per_page: number; readonly cursor?: string | undefined };
}

export interface ReactionPage {
  readonly items: MemberSummary[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  readonly nextCursor: string | null;
}

/**
 * `GET /feeds/{id}/reactions`: the members who liked a feed the caller may see (404 `not_found` otherwise, as
 * `GET /feeds/{id}`), newest like first. The page and its members are read beside the feed and its visibility
 * check (2 rounds instead of 4), and shown only once the feed is known to be visible. The total is the feed's
 * `reactions_count`, moved in the same transaction as each like; a liker whose account is gone is left out.
 */
export async function listFeedReactions(
  caller: Caller,
  { params, query }: ListFeedReactionsInput,
): Promise<ReactionPage> {
  const reading = queryPostReactionPage(params.feed_id, query).then(async (page) => ({
    page,
    users: await findUsersByIds(page.items.map((reaction) => reaction.user_id)),
  }));
  // Settled here too: when the feed is hidden its error wins, and the page's outcome must not go unhandled.
  reading.catch(() => undefined);
  const { post } = await loadVisibleFeed(caller, params.feed_id);
  const { page, users } = await reading;
  return {
    items: page.items.flatMap((reaction) => {
      const user = users.get(reaction.user_id);
      return user ? [toMemberSummary(user)] : [];
    }),
    total: post.reactions_count,
    page: query.page,
    perPage: query.per_page,
    nextCursor: page.nextCursor,
  };
}

/** One page of a post's reactions, newest first: GSI1 `postReactionsByTime`, the index entry of a post's like. */
function queryPostReactionPage(
  postId: number,
  query: ListFeedReactionsInput['query'],
): Promise<PageResult<ReactionItem>> {
  return queryPage({
    partition: postReactionsByTime(postId),
    schema: ReactionItemSchema,
    ascending: false,
    page: query.page,
    perPage: query.per_page,
    cursor: query.cursor,
  });
}
