import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { paginationBlockA, paginatorB } from '../../shared/contracts/envelopes.ts';
import type { RequestLocation } from '../../shared/http/handler.ts';
import { type Page, toPaginationBlockA, toPaginatorB } from '../../shared/http/paginator.ts';

/** Paginator B (community-api.md, shared envelopes) with decisions.md's cursor in `next_page_url`. */
const URL_BASE = 'https://api.example.com/v2/notifications';
const location = (query: Record<string, string> = {}): RequestLocation => ({ url: URL_BASE, query });

const page = (overrides: Partial<Page<number>>): Page<number> => ({
  items: [],
  total: 0,
  page: 1,
  perPage: 20,
  nextCursor: null,
  ...overrides,
});

const params = (url: string | null) => (url === null ? null : Object.fromEntries(new URL(url).searchParams));
const schema = paginatorB(v.number());

describe('toPaginatorB', () => {
  it('first of several pages: from/to, last_page, links, next_page_url with the cursor', () => {
    const result = toPaginatorB(
      page({ items: [1, 2, 3, 4, 5], total: 12, perPage: 5, nextCursor: 'CURSOR_1' }),
      location({ per_page: '5', type: 'mention' }),
    );
    expect(v.is(schema, result)).toBe(true);
    expect(result).toMatchObject({ current_page: 1, from: 1, to: 5, last_page: 3, per_page: 5, total: 12 });
    expect(result.data).toEqual([1, 2, 3, 4, 5]);
    expect(result.path).toBe(URL_BASE);
    expect(result.prev_page_url).toBeNull();
    expect(params(result.next_page_url)).toEqual({
      per_page: '5',
      type: 'mention',
      page: '2',
      cursor: 'CURSOR_1',
    });
    expect(params(result.first_page_url)).toEqual({ per_page: '5', type: 'mention', page: '1' });
    expect(params(result.last_page_url)).toEqual({ per_page: '5', type: 'mention', page: '3' });
    expect(result.next_page_url?.startsWith(`${URL_BASE}?`)).toBe(true);

    expect(result.links.map((link) => link.label)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '3',
      'Next &raquo;',
    ]);
    expect(result.links[0]).toEqual({ url: null, label: '&laquo; Previous', active: false });
    expect(result.links.filter((link) => link.active).map((link) => link.label)).toEqual(['1']);
    expect(result.links.at(-1)?.url).toBe(result.next_page_url);
  });

  it('a middle page drops the incoming page and cursor and links both ways', () => {
    const result = toPaginatorB(
      page({ items: [6, 7, 8, 9, 10], total: 12, page: 2, perPage: 5, nextCursor: 'NEXT' }),
      location({ page: '2', cursor: 'OLD', per_page: '5' }),
    );
    expect(result).toMatchObject({ current_page: 2, from: 6, to: 10 });
    expect(params(result.prev_page_url)).toEqual({ per_page: '5', page: '1' });
    expect(params(result.next_page_url)).toEqual({ per_page: '5', page: '3', cursor: 'NEXT' });
    expect(result.links[0]?.url).toBe(result.prev_page_url);
  });

  it('the last page: to = total, no next page', () => {
    const result = toPaginatorB(page({ items: [11, 12], total: 12, page: 3, perPage: 5 }), location());
    expect(result).toMatchObject({ current_page: 3, from: 11, to: 12, last_page: 3, next_page_url: null });
    expect(result.links.at(-1)).toEqual({ url: null, label: 'Next &raquo;', active: false });
  });

  it('without a cursor next_page_url still names the page', () => {
    const result = toPaginatorB(page({ items: [1], total: 2, perPage: 1 }), location());
    expect(params(result.next_page_url)).toEqual({ page: '2' });
  });

  it('a page past the end: empty data, from/to null, last_page from the total', () => {
    const result = toPaginatorB(page({ items: [], total: 12, page: 9, perPage: 5 }), location());
    expect(v.is(schema, result)).toBe(true);
    expect(result).toMatchObject({
      current_page: 9,
      data: [],
      from: null,
      to: null,
      last_page: 3,
      total: 12,
    });
    expect(result.next_page_url).toBeNull();
    expect(params(result.prev_page_url)).toEqual({ page: '8' });
  });

  it('an empty list: one page, nulls for missing links', () => {
    const result = toPaginatorB(page({}), location());
    expect(v.is(schema, result)).toBe(true);
    expect(result).toMatchObject({
      current_page: 1,
      data: [],
      from: null,
      to: null,
      last_page: 1,
      next_page_url: null,
      prev_page_url: null,
      total: 0,
    });
    expect(result.links.map((link) => link.label)).toEqual(['&laquo; Previous', '1', 'Next &raquo;']);
  });

  it('many pages: a window around the current page with "..." gaps', () => {
    const result = toPaginatorB(
      page({ items: [1], total: 50, page: 25, perPage: 1, nextCursor: 'C' }),
      location(),
    );
    expect(result.links.map((link) => link.label)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '...',
      '23',
      '24',
      '25',
      '26',
      '27',
      '...',
      '49',
      '50',
      'Next &raquo;',
    ]);
    const gaps = result.links.filter((link) => link.label === '...');
    expect(gaps.every((link) => link.url === null && !link.active)).toBe(true);
    expect(result.links.find((link) => link.active)?.label).toBe('25');
  });

  it('encodes query values safely', () => {
    const result = toPaginatorB(page({ items: [1], total: 2, perPage: 1 }), location({ search: 'a b&c=d' }));
    expect(params(result.next_page_url)).toEqual({ search: 'a b&c=d', page: '2' });
  });
});

describe('toPaginationBlockA', () => {
  it.each([
    [0, 50, 1],
    [1, 50, 1],
    [50, 50, 1],
    [51, 50, 2],
    [101, 20, 6],
  ])('total %i per %i → %i pages', (total, perPage, pages) => {
    const block = toPaginationBlockA({ total, page: 1, perPage });
    expect(v.is(paginationBlockA(), block)).toBe(true);
    expect(block).toEqual({ total, per_page: perPage, current_page: 1, total_pages: pages });
  });
});
