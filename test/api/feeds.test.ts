import { beforeAll, describe, expect, it } from 'vitest';
import { findSpacePostCount } from '../../shared/domain/feeds/feed-repository.ts';

const findSpaceStats = async (spaceId: number) => ({ posts_count: await findSpacePostCount(spaceId) });
import { findUserStats } from '../../shared/domain/feeds/feed-repository.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import {
  createSpace,
  createTopics,
  expectError,
  feedSwept,
  type Feed,
  feedOf,
  getFeed,
  ISO,
  postFeed,
} from '../support/feeds.ts';

/**
 * POST, GET, PUT and DELETE of one feed through the local gateway: every field of the success shapes, the
 * permission matrix per route (anonymous, member, non-member, space moderator, community moderator), visibility of
 * private and secret spaces and of unpublished feeds, bad input that changes nothing.
 */

let author: TestUser;
let member: TestUser;
let outsider: TestUser;
let spaceModerator: TestUser;
let communityModerator: TestUser;
let publicSpace: number;
let privateSpace: number;
let secretSpace: number;
let restrictedSpace: number;
let topic: number;

beforeAll(async () => {
  [author, member, outsider, spaceModerator, communityModerator] = await Promise.all([
    createTestUser({ displayName: 'Feed Author' }),
    createTestUser(),
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'moderator' }),
  ]);
  const members = [
    [author, 'member'],
    [member, 'member'],
    [spaceModerator, 'moderator'],
  ] as const;
  [publicSpace, privateSpace, secretSpace, restrictedSpace] = await Promise.all([
    createSpace({ members }),
    createSpace({ privacy: 'private', members }),
    createSpace({ privacy: 'secret', members }),
    createSpace({ members, settings: { restricted_post_only: 'yes' } }),
  ]);
  [topic] = (await createTopics(1)) as [number];
});

const FEED_KEYS = [
  'id',
  'user_id',
  'title',
  'slug',
  'message',
  'message_rendered',
  'type',
  'status',
  'comments_count',
  'reactions_count',
  'created_at',
  'xprofile',
  'space_id',
  'updated_at',
  'topics',
  'liked',
  'media',
].sort();

function expectFeedShape(feed: Feed) {
  expect(Object.keys(feed).sort()).toEqual(FEED_KEYS);
  expect(feed.created_at).toMatch(ISO);
  expect(feed.updated_at).toMatch(ISO);
  expect(Object.keys(feed.xprofile as object).sort()).toEqual([
    'avatar',
    'display_name',
    'user_id',
    'username',
  ]);
}

describe('POST /feeds', () => {
  it('creates a feed (201) and answers every field', async () => {
    const response = await api<{ message: string; feed: Feed }>('POST', '/feeds', {
      as: author,
      body: {
        title: 'Hello Wörld!',
        message: 'Some **bold** words',
        space_id: publicSpace,
        topics: [topic],
        media: [{ type: 'image', url: 'https://example.com/a.png' }],
      },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.message).toBe('Feed has been published.');
    const feed = response.body.feed;
    expectFeedShape(feed);
    expect(feed).toMatchObject({
      user_id: author.id,
      title: 'Hello Wörld!',
      slug: 'hello-world',
      message: 'Some **bold** words',
      message_rendered: '<p>Some <strong>bold</strong> words</p>',
      type: 'text',
      status: 'published',
      comments_count: 0,
      reactions_count: 0,
      space_id: publicSpace,
      liked: false,
      media: [{ type: 'image', url: 'https://example.com/a.png' }],
      xprofile: { user_id: author.id, username: author.username, display_name: 'Feed Author', avatar: '' },
    });
    expect(feed.topics).toHaveLength(1);
    expect(feed.topics[0]).toMatchObject({ id: topic });
    expect(Object.keys(feed.topics[0] as object).sort()).toEqual(['color', 'icon', 'id', 'slug', 'title']);
    expect(feed.created_at).toBe(feed.updated_at);
    // The single read answers the same feed.
    const read = await getFeed(author, feed.id);
    expect(read.status).toBe(200);
    expect(read.body.feed).toEqual(feed);
  });

  it('saves a draft: not counted as published', async () => {
    const before = await findUserStats(author.id);
    const response = await api<{ message: string; feed: Feed }>('POST', '/feeds', {
      as: author,
      body: { message: 'later', space_id: publicSpace, status: 'draft' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ message: 'Feed has been saved.', feed: { status: 'draft' } });
    const after = await findUserStats(author.id);
    expect(after.feeds_published ?? 0).toBe(before.feeds_published ?? 0);
    expect(after['feeds_status:draft']).toBe((before['feeds_status:draft'] ?? 0) + 1);
  });

  it('lets a non-member post nowhere but the global feed: 403 rest_forbidden, nothing written', async () => {
    const before = await findSpaceStats(publicSpace);
    for (const space of [publicSpace, privateSpace]) {
      const response = await api('POST', '/feeds', {
        as: outsider,
        body: { message: 'hi', space_id: space },
      });
      expectError(response, 403, 'rest_forbidden');
    }
    expect((await findSpaceStats(publicSpace)).posts_count).toBe(before.posts_count);
    expect((await findUserStats(outsider.id)).feeds_published ?? 0).toBe(0);
  });

  it('answers a secret space to a non-member like an unknown one (404 not_found)', async () => {
    expectError(
      await api('POST', '/feeds', { as: outsider, body: { message: 'hi', space_id: secretSpace } }),
      404,
      'not_found',
    );
    expectError(
      await api('POST', '/feeds', { as: author, body: { message: 'hi', space_id: 999_999_999 } }),
      404,
      'not_found',
    );
  });

  it('restricts a restricted_post_only space to its admins and moderators', async () => {
    const refused = await api('POST', '/feeds', {
      as: member,
      body: { message: 'hi', space_id: restrictedSpace },
    });
    expectError(refused, 403, 'rest_forbidden');
    await postFeed(spaceModerator, { space_id: restrictedSpace });
    // A community moderator counts as a member and a moderator of every space.
    await postFeed(communityModerator, { space_id: restrictedSpace });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const before = await findUserStats(author.id);
    const cases: [unknown, string, string][] = [
      [{ message: 'x', space_id: publicSpace, colour: 'red' }, 'rest_invalid_param', 'colour'],
      [{ message: 'x', space_id: publicSpace, title: 't'.repeat(193) }, 'rest_invalid_param', 'title'],
      [{ message: 'm'.repeat(15_001), space_id: publicSpace }, 'rest_invalid_param', 'message'],
      [{ message: '   ', space_id: publicSpace }, 'rest_invalid_param', 'message'],
      [{ message: 'x', space_id: String(publicSpace) }, 'rest_invalid_param', 'space_id'],
      [{ message: 'x', space_id: 1.5 }, 'rest_invalid_param', 'space_id'],
      [{ message: 'x', space_id: publicSpace, topics: ['a'] }, 'rest_invalid_param', 'topics.0'],
      [{ message: 'x', space_id: publicSpace, status: 'gone' }, 'rest_invalid_param', 'status'],
      [
        { message: 'x', space_id: publicSpace, media: [{ type: 'image', url: 'javascript:alert(1)' }] },
        'rest_invalid_param',
        'media.0.url',
      ],
      [{ space_id: publicSpace }, 'rest_missing_callback_param', 'message'],
    ];
    for (const [body, code, param] of cases) {
      const params = expectError(await api('POST', '/feeds', { as: author, body }), 400, code);
      if (code === 'rest_invalid_param') expect(Object.keys(params as object)).toContain(param);
      else expect(params).toEqual([param]);
    }
    const malformed = await api('POST', '/feeds', {
      as: author,
      rawBody: '{"message":',
      headers: { 'content-type': 'application/json' },
    });
    expectError(malformed, 400, 'rest_invalid_json');
    expect(await findUserStats(author.id)).toEqual(before);
  });

  it('accepts the longest title and message', async () => {
    const feed = await postFeed(author, {
      space_id: publicSpace,
      title: 't'.repeat(192),
      message: 'm'.repeat(15_000),
    });
    expect(feed.title).toHaveLength(192);
    expect(feed.message).toHaveLength(15_000);
  });
});

describe('GET /feeds/{id}', () => {
  let publicFeed: Feed;
  let privateFeed: Feed;
  let secretFeed: Feed;
  let draft: Feed;
  beforeAll(async () => {
    [publicFeed, privateFeed, secretFeed, draft] = await Promise.all([
      postFeed(author, { space_id: publicSpace }),
      postFeed(author, { space_id: privateSpace }),
      postFeed(author, { space_id: secretSpace }),
      postFeed(author, { space_id: publicSpace, status: 'draft' }),
    ]);
  });

  it('shows a public space’s feed to every member', async () => {
    const response = await getFeed(outsider, publicFeed.id);
    expect(response.status).toBe(200);
    expectFeedShape(response.body.feed);
  });

  it('hides private and secret spaces’ feeds from non-members (404, like an unknown id)', async () => {
    for (const feed of [privateFeed, secretFeed]) {
      expectError(await getFeed(outsider, feed.id), 404, 'not_found');
      expect((await getFeed(member, feed.id)).status).toBe(200);
      expect((await getFeed(communityModerator, feed.id)).status).toBe(200);
    }
    expectError(await getFeed(outsider, 999_999_999), 404, 'not_found');
  });

  it('shows an unpublished feed only to its author and moderators', async () => {
    expectError(await getFeed(member, draft.id), 404, 'not_found');
    for (const caller of [author, spaceModerator, communityModerator]) {
      expect((await getFeed(caller, draft.id)).status).toBe(200);
    }
  });

  it('refuses a malformed id (400) and answers 401 without credentials', async () => {
    expectError(await api('GET', '/feeds/abc', { as: author }), 400, 'rest_invalid_param');
    expectError(await api('GET', `/feeds/${publicFeed.id}`), 401, 'rest_not_logged_in');
  });
});

describe('PUT /feeds/{id}', () => {
  it('lets the author edit: the message is rendered again, updated_at moves, counts follow the status', async () => {
    const feed = await postFeed(author, { space_id: publicSpace, title: 'Before', topics: [topic] });
    const stats = await findSpaceStats(publicSpace);
    const response = await api<{ message: string; feed: Feed }>('PUT', `/feeds/${feed.id}`, {
      as: author,
      body: { title: 'After', message: 'New _text_', status: 'draft' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.message).toBe('Feed has been updated.');
    expectFeedShape(response.body.feed);
    expect(response.body.feed).toMatchObject({
      id: feed.id,
      title: 'After',
      slug: feed.slug,
      message: 'New _text_',
      message_rendered: '<p>New <em>text</em></p>',
      status: 'draft',
      space_id: publicSpace,
    });
    expect(response.body.feed.topics.map((t) => t.id)).toEqual([topic]);
    expect(response.body.feed.updated_at >= feed.updated_at).toBe(true);
    expect((await findSpaceStats(publicSpace)).posts_count).toBe((stats.posts_count ?? 0) - 1);
    const republished = await api('PUT', `/feeds/${feed.id}`, { as: author, body: { status: 'published' } });
    expect(republished.status).toBe(200);
    expect((await findSpaceStats(publicSpace)).posts_count).toBe(stats.posts_count);
  });

  it('lets a space moderator and a community moderator edit; refuses other members (403)', async () => {
    const feed = await postFeed(author, { space_id: publicSpace });
    expectError(
      await api('PUT', `/feeds/${feed.id}`, { as: member, body: { title: 'x' } }),
      403,
      'rest_forbidden',
    );
    for (const [caller, title] of [
      [spaceModerator, 'by space moderator'],
      [communityModerator, 'by community moderator'],
    ] as const) {
      const response = await api<{ feed: Feed }>('PUT', `/feeds/${feed.id}`, { as: caller, body: { title } });
      expect(response.status, response.text).toBe(200);
      expect(response.body.feed).toMatchObject({ title, user_id: author.id });
    }
  });

  it('answers 404 for a feed the caller cannot see, 400 for unknown fields, and changes nothing', async () => {
    const feed = await postFeed(author, { space_id: privateSpace, title: 'Unchanged' });
    expectError(
      await api('PUT', `/feeds/${feed.id}`, { as: outsider, body: { title: 'x' } }),
      404,
      'not_found',
    );
    expectError(await api('PUT', '/feeds/999999999', { as: author, body: { title: 'x' } }), 404, 'not_found');
    const params = expectError(
      await api('PUT', `/feeds/${feed.id}`, { as: author, body: { title: 'x', space_id: publicSpace } }),
      400,
      'rest_invalid_param',
    );
    expect(Object.keys(params as object)).toEqual(['space_id']);
    expectError(
      await api('PUT', `/feeds/${feed.id}`, { as: author, body: { message: 'm'.repeat(15_001) } }),
      400,
      'rest_invalid_param',
    );
    expect((await feedOf(author, feed.id))?.title).toBe('Unchanged');
  });
});

describe('DELETE /feeds/{id}', () => {
  it('lets the author delete; the feed, its counts, comments and likes go', async () => {
    const feed = await postFeed(author, { space_id: publicSpace, topics: [topic] });
    const comment = await api<{ comment: { id: number } }>('POST', `/feeds/${feed.id}/comments`, {
      as: member,
      body: { message: 'a comment' },
    });
    expect(comment.status).toBe(201);
    expect(
      (await api('POST', `/feeds/${feed.id}/react`, { as: member, body: { react_type: 'like' } })).status,
    ).toBe(200);
    const [space, authorStats, commenterStats] = await Promise.all([
      findSpaceStats(publicSpace),
      findUserStats(author.id),
      findUserStats(member.id),
    ]);

    const response = await api<{ message: string }>('DELETE', `/feeds/${feed.id}`, { as: author });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ message: 'Feed has been deleted.' });
    expectError(await getFeed(author, feed.id), 404, 'not_found');
    expect((await findSpaceStats(publicSpace)).posts_count).toBe((space.posts_count ?? 0) - 1);
    const after = await findUserStats(author.id);
    expect(after.feeds_published).toBe((authorStats.feeds_published ?? 0) - 1);
    expect(after[`feeds_published_space:${publicSpace}`]).toBe(
      (authorStats[`feeds_published_space:${publicSpace}`] ?? 0) - 1,
    );
    // Its comments and likes go through the `feeds` worker, in time that does not grow the request's.
    await feedSwept(feed.id);
    const commenter = await findUserStats(member.id);
    expect(commenter.comments_published).toBe((commenterStats.comments_published ?? 0) - 1);
    // The comment went with the feed: liking it or replying to it finds no feed.
    expectError(
      await api('POST', `/feeds/${feed.id}/comments`, { as: member, body: { message: 'late' } }),
      404,
      'not_found',
    );
    expectError(await api('DELETE', `/feeds/${feed.id}`, { as: author }), 404, 'not_found');
  });

  it('lets a space moderator and a community moderator delete; refuses other members (403)', async () => {
    const [first, second] = await Promise.all([
      postFeed(author, { space_id: publicSpace }),
      postFeed(author, { space_id: privateSpace }),
    ]);
    expectError(await api('DELETE', `/feeds/${first.id}`, { as: member }), 403, 'rest_forbidden');
    expectError(await api('DELETE', `/feeds/${second.id}`, { as: outsider }), 404, 'not_found');
    expect((await api('DELETE', `/feeds/${first.id}`, { as: spaceModerator })).status).toBe(200);
    expect((await api('DELETE', `/feeds/${second.id}`, { as: communityModerator })).status).toBe(200);
    expect(await feedOf(author, first.id)).toBeUndefined();
    expect(await feedOf(author, second.id)).toBeUndefined();
  });
});

describe('authentication on every feed route', () => {
  it.each([
    ['GET', '/feeds'],
    ['POST', '/feeds'],
    ['GET', '/feeds/1'],
    ['PUT', '/feeds/1'],
    ['DELETE', '/feeds/1'],
    ['GET', '/feeds/1/comments'],
    ['POST', '/feeds/1/comments'],
    ['POST', '/feeds/1/react'],
  ])('%s %s without credentials is 401 rest_not_logged_in', async (method, path) => {
    expectError(await api(method, path), 401, 'rest_not_logged_in');
  });
});
