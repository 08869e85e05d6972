import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, expectError, postFeed } from '../support/feeds.ts';

/**
 * GET /feeds/{id}/reactions: who liked a feed, newest first, as paginator B of member summaries; the cursor in
 * `next_page_url`; visibility as GET /feeds/{id} (404 for a feed the caller may not see); bad ids and paging.
 */

type Member = Record<string, unknown> & { user_id: number; username: string };
type Paginator = {
  current_page: number;
  data: Member[];
  total: number;
  per_page: number;
  next_page_url: string | null;
  prev_page_url: string | null;
  first_page_url: string;
  last_page_url: string;
  path: string;
  links: { url: string | null; label: string; active: boolean }[];
  from: number | null;
  to: number | null;
  last_page: number;
};

let author: TestUser;
let likers: TestUser[];
let outsider: TestUser;
let publicSpace: number;
let privateSpace: number;

beforeAll(async () => {
  [author, outsider, ...likers] = await Promise.all([
    createTestUser(),
    createTestUser(),
    ...Array.from({ length: 5 }, () => createTestUser()),
  ]);
  const members = [[author, 'member'] as const, ...likers.map((liker) => [liker, 'member'] as const)];
  [publicSpace, privateSpace] = await Promise.all([
    createSpace({ members }),
    createSpace({ privacy: 'private', members }),
  ]);
});

const like = async (as: TestUser, feedId: number) => {
  const response = await api<{ data: { liked: boolean } }>('POST', `/feeds/${feedId}/react`, {
    as,
    body: { react_type: 'like' },
  });
  expect(response.body.data.liked, response.text).toBe(true);
};

const list = (as: TestUser, feedId: number | string, query: Record<string, string | number> = {}) =>
  api<{ reactions: Paginator }>('GET', `/feeds/${feedId}/reactions`, { as, query });

/** A feed liked by every liker in turn (one at a time, so "newest first" has one answer). */
async function likedFeed(spaceId: number): Promise<number> {
  const feed = await postFeed(author, { space_id: spaceId });
  for (const liker of likers) await like(liker, feed.id);
  return feed.id;
}

describe('GET /feeds/{id}/reactions', () => {
  let feedId: number;
  let newestFirst: number[];
  beforeAll(async () => {
    feedId = await likedFeed(publicSpace);
    newestFirst = likers.map((liker) => liker.id).reverse();
  });

  it('answers paginator B of member summaries, newest like first, total from reactions_count', async () => {
    const response = await list(author, feedId);
    expect(response.status, response.text).toBe(200);
    const page = response.body.reactions;
    expect(page).toMatchObject({ current_page: 1, per_page: 20, total: 5, from: 1, to: 5, last_page: 1 });
    expect(page.next_page_url).toBeNull();
    expect(page.prev_page_url).toBeNull();
    expect(page.path).toMatch(new RegExp(`/v2/feeds/${feedId}/reactions$`));
    expect(page.data.map((member) => member.user_id)).toEqual(newestFirst);
    const last = likers.at(-1) as TestUser;
    expect(page.data[0]).toMatchObject({ user_id: last.id, username: last.username, badge: null });
    expect(Object.keys(page.data[0] ?? {}).sort()).toEqual(
      [
        'avatar',
        'badge',
        'created_at',
        'display_name',
        'is_verified',
        'meta',
        'short_description',
        'status',
        'total_points',
        'user_id',
        'username',
      ].sort(),
    );
    expect(page.links.map((link) => link.label)).toEqual(['&laquo; Previous', '1', 'Next &raquo;']);
  });

  it('follows next_page_url with its cursor; a forged cursor and bad paging are 400', async () => {
    const first = (await list(author, feedId, { per_page: 2 })).body.reactions;
    expect(first.data.map((member) => member.user_id)).toEqual(newestFirst.slice(0, 2));
    expect(first).toMatchObject({ last_page: 3, from: 1, to: 2 });
    const next = new URL(first.next_page_url as string);
    expect(next.searchParams.get('cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(next.searchParams.get('per_page')).toBe('2');
    const second = await api<{ reactions: Paginator }>(
      'GET',
      `${next.pathname.replace(/^\/v2/, '')}${next.search}`,
      { as: author },
    );
    expect(second.status, second.text).toBe(200);
    expect(second.body.reactions.data.map((member) => member.user_id)).toEqual(newestFirst.slice(2, 4));
    expect(second.body.reactions).toMatchObject({ current_page: 2, from: 3, to: 4 });
    // Page 3 without a cursor: the one remaining like.
    const third = (await list(author, feedId, { per_page: 2, page: 3 })).body.reactions;
    expect(third.data.map((member) => member.user_id)).toEqual(newestFirst.slice(4));
    expect(third.next_page_url).toBeNull();
    expect((await list(author, feedId, { page: 9 })).body.reactions).toMatchObject({ data: [], total: 5 });
    expectError(
      await list(author, feedId, { per_page: 2, page: 2, cursor: 'AAAAforged' }),
      400,
      'rest_invalid_param',
    );
    for (const query of [{ page: 0 }, { per_page: 0 }, { per_page: 101 }, { page: 'x' }] as Record<
      string,
      number
    >[]) {
      expectError(await list(author, feedId, query), 400, 'rest_invalid_param');
    }
  });

  it('drops an unliked member and shows a feed with no reactions as an empty page', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    const empty = await list(outsider, feed.id);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body.reactions).toMatchObject({ data: [], total: 0, from: null, to: null, last_page: 1 });
    expect(empty.body.reactions.next_page_url).toBeNull();
    const [liker] = likers as [TestUser];
    await like(liker, feed.id);
    expect((await list(outsider, feed.id)).body.reactions.data.map((member) => member.user_id)).toEqual([
      liker.id,
    ]);
    await api('POST', `/feeds/${feed.id}/react`, { as: liker, body: { react_type: 'like' } });
    expect((await list(outsider, feed.id)).body.reactions).toMatchObject({ data: [], total: 0 });
  });

  it('lets whoever may see the feed list its likes; 404 like GET /feeds/{id} otherwise', async () => {
    const hidden = await likedFeed(privateSpace);
    const [member] = likers as [TestUser];
    expect((await list(member, hidden)).body.reactions.total).toBe(5);
    expectError(await api('GET', `/feeds/${hidden}`, { as: outsider }), 404, 'not_found');
    expectError(await list(outsider, hidden), 404, 'not_found');
    // The 404 wins over a cursor the feed's page would have refused.
    expectError(await list(outsider, hidden, { page: 2, cursor: 'AAAAforged' }), 404, 'not_found');
    expectError(await list(author, 999_999_999), 404, 'not_found');
  });

  it('refuses ids that are not positive integers (400) and needs a caller (401)', async () => {
    for (const id of ['abc', '0', '-1', '1.5']) {
      expectError(await list(author, id), 400, 'rest_invalid_param');
    }
    expectError(await api('GET', `/feeds/${feedId}/reactions`), 401, 'rest_not_logged_in');
  });
});
