import type { ListingPage } from './feed-repository.ts';
import type { FeedStatus, PostItem } from './post-item.ts';

/** The query of `GET /feeds` as the contract delivers it (defaults applied there). */
export interface ListFeedsInput {
  readonly page: number;
  readonly per_page: number;
  readonly topics?: readonly number[] | undefined;
  readonly space_id?: number | undefined;
  readonly username?: string | undefined;
  readonly status: FeedStatus;
}

/** The page `GET /feeds` asks for (paginator C: a page number, no cursor). */
export type Paging = { readonly page: number; readonly perPage: number };

/** A page of posts and the exact number of feeds the caller may page through. */
export interface PostPage {
  readonly posts: PostItem[];
  readonly total: number;
  /** The caller's likes of these posts. */
  readonly liked: Set<number>;
}

/** A page of listing entries (whose posts are read next) and the exact total. */
export interface ListedPage {
  readonly listed: ListingPage;
  readonly total: number;
  /**
   * The caller's likes are looked up after the posts, for the posts somebody likes only (a post nobody likes is not
   * the caller's like): for the list every member reads, so its newest posts' partitions take one read per view.
   * Only when the page's entries took one round: after a read on, the likes are read beside the posts (three rounds).
   */
  readonly likesOfLikedOnly?: boolean;
}

export const listed = (
  listings: ListingPage['listings'],
  total: number,
  status: FeedStatus = 'published',
) => ({
  listed: { listings, status },
  total,
});

/**
 * A page read beside the total it is cut by (one round for both): a page that starts at or past the total is
 * answered empty, as when the total is read first; what the index listed there is not shown.
 */
export const cutTo = (listings: ListingPage['listings'], total: number, paging: Paging) =>
  (paging.page - 1) * paging.perPage >= total ? [] : listings;

/**
 * How deep (offset + per_page) a page of a list read beside its total may be: deeper, the total is read first, so a
 * page past the end reads no index (and a deep page costs its reads anyway).
 */
const BESIDE_TOTAL_WINDOW = 500;
export const readsBesideTotal = (paging: Paging) => paging.page * paging.perPage <= BESIDE_TOTAL_WINDOW;

/**
 * A list read with a FilterExpression that may drop a fair share of it (another member's feeds: their drafts and
 * other members-only spaces' feeds) asks each read for twice what is still missing: a page most often fills in one
 * Query, for a few small listing entries more.
 */
export const READ_AHEAD = 2;
