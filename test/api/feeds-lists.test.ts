import { beforeAll, describe, expect, it } from 'vitest';
import { api, type TestUser } from '../support/api.ts';
import {
  allFeeds,
  createSpace,
  expectError,
  type Feed,
  listFeeds,
  postFeed,
  feedAudience,
} from '../support/feeds.ts';

/**
 * GET /feeds: paginator C, each filter, exact visibility-aware totals (a total counts exactly the feeds the caller
 * can page through), pagination bounds. The unfiltered timeline's totals are checked in
 * feeds-topic-rules.settings.test.ts, where no other file writes feeds meanwhile.
 */

let author: TestUser;
let member: TestUser;
let outsider: TestUser;
let moderator: TestUser;
let publicSpace: number;
let privateSpace: number;
let secretSpace: number;
const published: Feed[] = [];
let privateFeed: Feed;
let secretFeed: Feed;

beforeAll(async () => {
  let members: Awaited<ReturnType<typeof feedAudience>>['members'];
  ({ author, member, outsider, moderator, members } = await feedAudience());
  [publicSpace, privateSpace, secretSpace] = await Promise.all([
    createSpace({ members }),
    createSpace({ privacy: 'private', members }),
    createSpace({ privacy: 'secret', members }),
  ]);
  // Sequential, so creation order is list order (newest first).
  for (let i = 0; i < 5; i++)
    published.push(await postFeed(author, { space_id: publicSpace, title: `P${i}` }));
  privateFeed = await postFeed(author, { space_id: privateSpace });
  secretFeed = await postFeed(author, { space_id: secretSpace });
  await postFeed(author, { space_id: publicSpace, status: 'draft' });
  await postFeed(member, { space_id: publicSpace, title: 'by member' });
});

describe('GET /feeds?space_id=', () => {
  it('answers paginator C: newest first, exact total, default per_page 20', async () => {
    const response = await listFeeds(outsider, { space_id: publicSpace });
    expect(response.status, response.text).toBe(200);
    const page = response.body.feeds;
    expect(Object.keys(page).sort()).toEqual(['current_page', 'data', 'per_page', 'total']);
    expect(page).toMatchObject({ current_page: 1, per_page: 20, total: 6 });
    expect(page.data.map((feed) => feed.title)).toEqual(['by member', 'P4', 'P3', 'P2', 'P1', 'P0']);
  });

  it('pages: page 2 of 4, a page past the end is empty with the total', async () => {
    const second = (await listFeeds(outsider, { space_id: publicSpace, per_page: 4, page: 2 })).body.feeds;
    expect(second).toMatchObject({ current_page: 2, per_page: 4, total: 6 });
    expect(second.data.map((feed) => feed.title)).toEqual(['P1', 'P0']);
    const past = (await listFeeds(outsider, { space_id: publicSpace, per_page: 4, page: 3 })).body.feeds;
    expect(past).toEqual({ current_page: 3, per_page: 4, total: 6, data: [] });
  });

  it('refuses out-of-range paging and malformed filters (400 rest_invalid_param)', async () => {
    for (const [query, name] of [
      [{ page: 0 }, 'page'],
      [{ per_page: 0 }, 'per_page'],
      [{ per_page: 101 }, 'per_page'],
      [{ space_id: 'abc' }, 'space_id'],
      [{ space_id: '0' }, 'space_id'],
      [{ topics: '1,x' }, 'topics'],
      [{ status: 'gone' }, 'status'],
      [{ username: 'bad name!' }, 'username'],
    ] as const) {
      const params = expectError(await listFeeds(author, query), 400, 'rest_invalid_param');
      expect(Object.keys(params as object)).toEqual([name]);
    }
  });

  it('hides private and secret spaces from non-members: 404 not_found, like an unknown space', async () => {
    for (const space of [privateSpace, secretSpace, 999_999_999]) {
      expectError(await listFeeds(outsider, { space_id: space }), 404, 'not_found');
    }
    const forMember = (await listFeeds(member, { space_id: privateSpace })).body.feeds;
    expect(forMember.total).toBe(1);
    expect(forMember.data.map((feed) => feed.id)).toEqual([privateFeed.id]);
    expect((await listFeeds(moderator, { space_id: secretSpace })).body.feeds.total).toBe(1);
  });
});

describe('GET /feeds?username=', () => {
  it('counts only what the caller may see: public feeds for a non-member, members-only ones for members', async () => {
    const outsiderView = await allFeeds(outsider, { username: author.username });
    expect(outsiderView.total).toBe(5);
    expect(outsiderView.feeds.map((feed) => feed.id)).toEqual(published.map((feed) => feed.id).reverse());

    const memberView = await allFeeds(member, { username: author.username });
    expect(memberView.total).toBe(7);
    expect(memberView.feeds.map((feed) => feed.id).slice(0, 2)).toEqual([secretFeed.id, privateFeed.id]);

    for (const caller of [author, moderator]) {
      const view = await allFeeds(caller, { username: author.username });
      expect(view.total).toBe(7);
      expect(view.feeds).toHaveLength(7);
    }
  });

  it('combines with space_id (exact total)', async () => {
    const view = await allFeeds(outsider, { username: author.username, space_id: publicSpace });
    expect(view.total).toBe(5);
    expect(view.feeds.every((feed) => feed.user_id === author.id && feed.space_id === publicSpace)).toBe(
      true,
    );
    const byMember = await allFeeds(outsider, { username: member.username, space_id: publicSpace });
    expect(byMember.total).toBe(1);
  });

  it('answers 404 user_not_found for an unknown username (matched case-insensitively)', async () => {
    expectError(await listFeeds(author, { username: 'no_such_user_anywhere_x' }), 404, 'user_not_found');
    expect((await listFeeds(outsider, { username: author.username.toUpperCase() })).body.feeds.total).toBe(5);
  });

  it('refuses topics with username (no counter serves that total)', async () => {
    const params = expectError(
      await listFeeds(author, { username: author.username, topics: '1' }),
      400,
      'rest_invalid_param',
    );
    expect(Object.keys(params as object)).toEqual(['topics']);
  });
});

describe('GET /feeds?status=', () => {
  it('lists the caller’s own unpublished feeds by status, counted exactly', async () => {
    const drafts = (await listFeeds(author, { status: 'draft' })).body.feeds;
    expect(drafts.total).toBe(1);
    expect(drafts.data.map((feed) => feed.status)).toEqual(['draft']);
    expect((await listFeeds(author, { status: 'pending' })).body.feeds).toMatchObject({ total: 0, data: [] });
  });

  it('shows another member’s unpublished feeds to community moderators only (else 403)', async () => {
    expectError(
      await listFeeds(member, { status: 'draft', username: author.username }),
      403,
      'rest_forbidden',
    );
    const view = (await listFeeds(moderator, { status: 'draft', username: author.username })).body.feeds;
    expect(view.total).toBe(1);
  });

  it('does not combine with topics or space_id', async () => {
    const queries: Record<string, string | number>[] = [
      { status: 'draft', space_id: publicSpace },
      { status: 'draft', topics: '1' },
    ];
    for (const query of queries) {
      const params = expectError(await listFeeds(author, query), 400, 'rest_invalid_param');
      expect(Object.keys(params as object)).toEqual(['status']);
    }
  });
});

describe('GET /feeds (no filter)', () => {
  it('shows members-only feeds to their members and moderators, never to others', async () => {
    const newest = await postFeed(author, { space_id: privateSpace, title: 'newest private' });
    const ids = async (caller: TestUser) =>
      (await listFeeds(caller, { per_page: 100 })).body.feeds.data.map((feed) => feed.id);
    expect(await ids(member)).toContain(newest.id);
    expect(await ids(moderator)).toContain(newest.id);
    expect(await ids(outsider)).not.toContain(newest.id);
    const outsiderPage = (await listFeeds(outsider, { per_page: 100 })).body.feeds;
    expect(
      outsiderPage.data.every((feed) => feed.space_id !== privateSpace && feed.space_id !== secretSpace),
    ).toBe(true);
  });

  it('answers each item with the caller’s like', async () => {
    const feed = published[0] as Feed;
    expect(
      (await api('POST', `/feeds/${feed.id}/react`, { as: member, body: { react_type: 'like' } })).status,
    ).toBe(200);
    const view = (await listFeeds(member, { space_id: publicSpace, per_page: 100 })).body.feeds.data;
    expect(view.find((item) => item.id === feed.id)).toMatchObject({ liked: true, reactions_count: 1 });
    expect(view.filter((item) => item.liked)).toHaveLength(1);
    const other = (await listFeeds(outsider, { space_id: publicSpace, per_page: 100 })).body.feeds.data;
    expect(other.find((item) => item.id === feed.id)).toMatchObject({ liked: false, reactions_count: 1 });
  });
});
