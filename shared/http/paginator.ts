import type { RequestLocation } from './handler.ts';

/** A page as use cases return it: items plus what the envelopes need. */
export interface Page<T> {
  readonly items: T[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  /** Opaque cursor to the next page (carried in `next_page_url`), or null. */
  readonly nextCursor?: string | null;
  /**
   * The list goes on after this page though `total` does not show it yet (a search that settles its list a window
   * at a time): `next_page_url` is offered whatever `last_page` says.
   */
  readonly more?: boolean;
}

export interface PaginatorB<T> {
  current_page: number;
  data: T[];
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: Array<{ url: string | null; label: string; active: boolean }>;
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
}

/**
 * Paginator B (Laravel's length-aware paginator shape). Page URLs keep the request's own query parameters and
 * replace `page`; `next_page_url` adds the opaque `cursor` so a client following it pays for one page only
 * (decisions.md, pagination). `links` shows Previous, a window of pages with "..." gaps, and Next.
 */
export function toPaginatorB<T>(page: Page<T>, location: RequestLocation): PaginatorB<T> {
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage));
  const urlFor = (target: number, cursor?: string | null) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(location.query)) {
      if (key !== 'page' && key !== 'cursor') query.set(key, value);
    }
    query.set('page', String(target));
    if (cursor) query.set('cursor', cursor);
    return `${location.url}?${query.toString()}`;
  };
  const from = page.items.length > 0 ? (page.page - 1) * page.perPage + 1 : null;
  const to = from === null ? null : from + page.items.length - 1;
  const hasNext = page.page < lastPage || page.more === true;
  const hasPrev = page.page > 1;

  const links: PaginatorB<T>['links'] = [
    { url: hasPrev ? urlFor(page.page - 1) : null, label: '&laquo; Previous', active: false },
    ...pageWindow(page.page, lastPage).map((entry) =>
      entry === null
        ? { url: null, label: '...', active: false }
        : { url: urlFor(entry), label: String(entry), active: entry === page.page },
    ),
    { url: hasNext ? urlFor(page.page + 1, page.nextCursor) : null, label: 'Next &raquo;', active: false },
  ];

  return {
    current_page: page.page,
    data: page.items,
    first_page_url: urlFor(1),
    from,
    last_page: lastPage,
    last_page_url: urlFor(lastPage),
    links,
    next_page_url: hasNext ? urlFor(page.page + 1, page.nextCursor) : null,
    path: location.url,
    per_page: page.perPage,
    prev_page_url: hasPrev ? urlFor(page.page - 1) : null,
    to,
    total: page.total,
  };
}

/** Pages to show: all when few, else the ends and a window around the current page, `null` for a gap. */
function pageWindow(current: number, last: number): Array<number | null> {
  if (last <= 10) return Array.from({ length: last }, (_, index) => index + 1);
  const pages = new Set([1, 2, last - 1, last, current - 2, current - 1, current, current + 1, current + 2]);
  const sorted = [...pages].filter((page) => page >= 1 && page <= last).sort((a, b) => a - b);
  const result: Array<number | null> = [];
  for (const page of sorted) {
    const previous = result[result.length - 1];
    if (typeof previous === 'number' && page - previous > 1) result.push(null);
    result.push(page);
  }
  return result;
}

/** Pagination block A (topics, quiz results). */
export const toPaginationBlockA = (page: Omit<Page<unknown>, 'items'>) => ({
  total: page.total,
  per_page: page.perPage,
  current_page: page.page,
  total_pages: Math.max(1, Math.ceil(page.total / page.perPage)),
});

/**
 * A list answered with pagination block A: `{ <key>: items, pagination }` (topics, quiz results). Fields of the page
 * beyond the paging ones (e.g. quiz `statistics`) travel alongside.
 */
export function withPaginationBlockA<K extends string, T, P extends Page<T>>(
  key: K,
  page: P,
): Record<K, T[]> & { pagination: ReturnType<typeof toPaginationBlockA> } & Omit<P, keyof Page<T>> {
  const { items, total, page: current, perPage, nextCursor: _cursor, ...extra } = page;
  return {
    ...extra,
    [key]: items,
    pagination: toPaginationBlockA({ total, page: current, perPage }),
  } as Record<K, T[]> & { pagination: ReturnType<typeof toPaginationBlockA> } & Omit<P, keyof Page<T>>;
}
