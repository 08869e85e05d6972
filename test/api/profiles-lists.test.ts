import { beforeAll, describe, expect, it } from 'vitest';
import { putAction, transactWrite } from '../../shared/db/transact.ts';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { storedMembership } from '../../shared/domain/spaces/index.ts';
import { setUserStatus } from '../../shared/domain/users/index.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, expectError, type Feed, ISO, listFeeds, postFeed } from '../support/feeds.ts';
import { follow, getProfile, type Json, profileList } from '../support/profiles.ts';

/**
 * The member lists of a profile: spaces (active memberships, secret spaces, hidden member counts), comments
 * (paginator B, visibility-aware exact totals), media (paginator D, filters, visibility), and `/feeds?username=`.
 * The `admin_only` space visibility is in profiles-spaces.settings.test.ts.
 */

let member: TestUser;
let insider: TestUser;
let outsider: TestUser;
let moderator: TestUser;
let publicSpace: number;
let privateSpace: number;
let secretSpace: number;
let hiddenCountSpace: number;
let pendingSpace: number;
let publicFeed: Feed;
let privateFeed: Feed;

const comment = async (as: TestUser, feedId: number, message: string) => {
  const response = await api<{ comment: Json }>('POST', `/feeds/${feedId}/comments`, {
    as,
    body: { message },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.comment;
};

beforeAll(async () => {
  [member, insider, outsider, moderator] = await Promise.all([
    createTestUser(),
    createTestUser(),
    createTestUser(),
    createTestUser({ communityRole: 'moderator' }),
  ]);
  const both = [
    [member, 'member'],
    [insider, 'admin'],
  ] as const;
  publicSpace = await createSpace({ members: both });
  privateSpace = await createSpace({ privacy: 'private', members: both });
  secretSpace = await createSpace({ privacy: 'secret', members: both });
  hiddenCountSpace = await createSpace({ members: both, settings: { hide_members_count: 'yes' } });
  pendingSpace = await createSpace({ members: [[insider, 'admin']] });
  await transactWrite([
    putAction(
      storedMembership({
        space_id: pendingSpace,
        user_id: member.id,
        role: 'member',
        status: 'pending',
        created_at: new Date().toISOString(),
      }),
    ),
  ]);
  publicFeed = await postFeed(insider, { space_id: publicSpace, title: 'public' });
  privateFeed = await postFeed(insider, { space_id: privateSpace, title: 'private' });
  await comment(member, publicFeed.id, 'first public');
  await comment(member, privateFeed.id, 'in private');
  await comment(member, publicFeed.id, 'second public');
  await postFeed(member, { space_id: publicSpace });
  await postFeed(member, { space_id: privateSpace });
});

describe('GET /profile/{username}/spaces', () => {
  it('lists only active memberships, with members_count and pivot; secret spaces only to owner and moderators', async () => {
    const own = await profileList<{ spaces: Json[] }>(member, member.username, 'spaces');
    expect(own.status, own.text).toBe(200);
    const ids = own.body.spaces.map((space) => space.id);
    expect(ids).toEqual([publicSpace, privateSpace, secretSpace, hiddenCountSpace]);
    expect(ids).not.toContain(pendingSpace);
    const first = own.body.spaces[0] as Json;
    expect(first).toMatchObject({ id: publicSpace, privacy: 'public', members_count: 2, type: 'community' });
    expect(first.pivot).toMatchObject({
      role: 'member',
      space_id: publicSpace,
      status: 'active',
      user_id: member.id,
    });
    expect(first.pivot.created_at).toMatch(ISO);
    expect(first.created_at).toMatch(ISO);
    expect(Array.isArray(first.settings.links)).toBe(true);
    expect(first.settings).toHaveProperty('show_fetured_image');

    const forModerator = await profileList<{ spaces: Json[] }>(moderator, member.username, 'spaces');
    expect(forModerator.body.spaces.map((space) => space.id)).toContain(secretSpace);
    const forOutsider = await profileList<{ spaces: Json[] }>(outsider, member.username, 'spaces');
    expect(forOutsider.body.spaces.map((space) => space.id)).toEqual([
      publicSpace,
      privateSpace,
      hiddenCountSpace,
    ]);
  });

  it('reports 0 members where hide_members_count hides the count from the caller', async () => {
    const countOf = async (caller: TestUser) =>
      (await profileList<{ spaces: Json[] }>(caller, member.username, 'spaces')).body.spaces.find(
        (space) => space.id === hiddenCountSpace,
      )?.members_count;
    expect(await countOf(outsider)).toBe(0);
    expect(await countOf(insider)).toBe(2);
    expect(await countOf(moderator)).toBe(2);
  });

  it('answers 404 user_not_found for an unknown member', async () => {
    expectError(await profileList(outsider, 'nobody_has_this_name_s', 'spaces'), 404, 'user_not_found');
  });
});

describe('GET /profile/{username}/comments', () => {
  it('answers paginator B newest first with post and xprofile, never from spaces the caller cannot see', async () => {
    const forOutsider = await profileList<{ comments: Json; xprofile: Json }>(
      outsider,
      member.username,
      'comments',
    );
    expect(forOutsider.status, forOutsider.text).toBe(200);
    const page = forOutsider.body.comments;
    expect(page).toMatchObject({ current_page: 1, per_page: 20, total: 2 });
    expect(page.data.map((row: Json) => row.message)).toEqual(['second public', 'first public']);
    const row = page.data[0];
    expect(Object.keys(row).sort()).toEqual(
      [
        'id',
        'post_id',
        'parent_id',
        'message',
        'message_rendered',
        'reactions_count',
        'status',
        'created_at',
        'updated_at',
        'post',
      ].sort(),
    );
    expect(row.post).toEqual({
      id: publicFeed.id,
      title: 'public',
      slug: expect.any(String),
      space_id: publicSpace,
    });
    expect(row.created_at).toMatch(ISO);
    expect(forOutsider.body.xprofile).toMatchObject({ user_id: member.id, username: member.username });

    for (const caller of [insider, member, moderator]) {
      const page = (await profileList<{ comments: Json }>(caller, member.username, 'comments')).body.comments;
      expect(page.total).toBe(3);
      expect(page.data.map((row: Json) => row.message)).toEqual([
        'second public',
        'in private',
        'first public',
      ]);
    }
  });

  it('pages with a cursor', async () => {
    const first = (
      await profileList<{ comments: Json }>(insider, member.username, 'comments', { per_page: 2 })
    ).body.comments;
    expect(first.next_page_url).toContain('cursor=');
    const second = (await api<{ comments: Json }>('GET', first.next_page_url, { as: insider })).body.comments;
    expect(second.data.map((row: Json) => row.message)).toEqual(['first public']);
  });
});

describe('GET /feeds?username=', () => {
  it('never shows feeds from spaces the caller cannot see; unknown users are 404 user_not_found', async () => {
    const forOutsider = (await listFeeds(outsider, { username: member.username })).body.feeds;
    expect(forOutsider.total).toBe(1);
    expect(forOutsider.data.every((feed) => feed.space_id === publicSpace)).toBe(true);
    expect((await listFeeds(insider, { username: member.username })).body.feeds.total).toBe(2);
    expectError(await listFeeds(outsider, { username: 'nobody_has_this_name_f' }), 404, 'user_not_found');
  });
});

describe('GET /profile/{username}/media', () => {
  let uploader: TestUser;
  let ids: Record<string, number>;

  beforeAll(async () => {
    uploader = await createTestUser();
    const media = (ref: string, extra: Json) => ({
      ref,
      user: uploader.username,
      file_name: `${ref}.png`,
      file_type: 'image/png',
      file_size: 100,
      file_url: `https://cdn.example.com/${ref}.png`,
      ...extra,
    });
    const result = await runImport({
      media: [
        media('onProfile', {
          object_source: 'profile',
          object_id: uploader.id,
          created_at: '2026-01-01T00:00:01Z',
        }),
        media('onPublic', {
          object_source: 'feed',
          object_id: publicFeed.id,
          created_at: '2026-01-01T00:00:02Z',
        }),
        media('onPrivate', {
          object_source: 'feed',
          object_id: privateFeed.id,
          created_at: '2026-01-01T00:00:03Z',
        }),
        media('loose', { created_at: '2026-01-01T00:00:04Z' }),
        media('pdf', {
          file_name: 'doc.pdf',
          file_type: 'application/pdf',
          object_source: 'space',
          object_id: publicSpace,
          created_at: '2026-01-01T00:00:05Z',
        }),
      ],
    });
    ids = result.media as Record<string, number>;
  });

  const list = (caller: TestUser, query: Record<string, string | number> = {}) =>
    profileList<{ data: Json[]; meta: Json }>(caller, uploader.username, 'media', query);

  it('answers paginator D, newest first, everything for the owner and moderators', async () => {
    for (const caller of [uploader, moderator]) {
      const response = await list(caller);
      expect(response.status, response.text).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['data', 'meta']);
      expect(response.body.meta).toEqual({ total: 5, per_page: 20, current_page: 1 });
      expect(response.body.data.map((item) => item.id)).toEqual(
        ['pdf', 'loose', 'onPrivate', 'onPublic', 'onProfile'].map((ref) => ids[ref]),
      );
      const item = response.body.data[0] as Json;
      expect(Object.keys(item).sort()).toEqual(
        ['created_at', 'file_name', 'file_type', 'file_url', 'id', 'thumbnail_url'].sort(),
      );
      expect(item.created_at).toMatch(ISO);
    }
  });

  it('shows others only what is attached to objects they may see', async () => {
    const forOutsider = (await list(outsider)).body.data.map((item) => item.id);
    expect(forOutsider).toEqual(['pdf', 'onPublic', 'onProfile'].map((ref) => ids[ref]));
    const forInsider = (await list(insider)).body.data.map((item) => item.id);
    expect(forInsider).toEqual(['pdf', 'onPrivate', 'onPublic', 'onProfile'].map((ref) => ids[ref]));
  });

  it('filters by file_type and object_source, with exact totals', async () => {
    const pdf = (await list(uploader, { file_type: 'application/pdf' })).body;
    expect(pdf.meta.total).toBe(1);
    expect(pdf.data.map((item) => item.id)).toEqual([ids.pdf]);
    const feeds = (await list(uploader, { object_source: 'feed' })).body;
    expect(feeds.meta.total).toBe(2);
    const pngOnFeeds = (await list(uploader, { object_source: 'feed', file_type: 'image/png' })).body;
    expect(pngOnFeeds.meta.total).toBe(2);
    expect(pngOnFeeds.data.map((item) => item.id)).toEqual([ids.onPrivate, ids.onPublic]);
    const paged = (await list(uploader, { per_page: 2, page: 2 })).body;
    expect(paged.data.map((item) => item.id)).toEqual([ids.onPrivate, ids.onPublic]);
  });

  it('refuses per_page over 100 and unknown filters values (rest_invalid_param)', async () => {
    for (const [query, name] of [
      [{ per_page: 101 }, 'per_page'],
      [{ file_type: 'text/html' }, 'file_type'],
      [{ object_source: 'planet' }, 'object_source'],
    ] as const) {
      const params = expectError(await list(outsider, query), 400, 'rest_invalid_param');
      expect(Object.keys(params as object)).toEqual([name]);
    }
  });

  it('lists imported media with the profile still readable', async () => {
    expect((await getProfile(outsider, uploader.username)).status).toBe(200);
  });
});

describe('a profile that is not active', () => {
  it('refuses its lists and follows to members (403), not to community moderators', async () => {
    const suspended = await createTestUser();
    await setUserStatus(suspended.id, 'suspended');
    for (const list of ['comments', 'spaces', 'media', 'followers', 'followings'] as const) {
      expectError(await profileList(outsider, suspended.username, list), 403, 'rest_forbidden');
      const seen = await profileList(moderator, suspended.username, list);
      expect(seen.status, `${list}: ${seen.text}`).toBe(200);
    }
    expectError(await follow(outsider, suspended.username), 403, 'rest_forbidden');
  });
});

describe('media attached to a secret space or a comment', () => {
  it('follows the visibility of what it is attached to', async () => {
    const uploader = await createTestUser();
    const onComment = await comment(member, privateFeed.id, 'with a picture');
    const item = (ref: string, extra: Json) => ({
      ref,
      user: uploader.username,
      file_name: `${ref}.png`,
      file_type: 'image/png',
      file_size: 1,
      ...extra,
    });
    const result = await runImport({
      media: [
        item('secret', {
          object_source: 'space',
          object_id: secretSpace,
          created_at: '2026-02-01T00:00:01Z',
        }),
        item('comment', {
          object_source: 'comment',
          object_id: onComment.id,
          created_at: '2026-02-01T00:00:02Z',
        }),
      ],
    });
    const ids = result.media as Record<string, number>;
    const listed = async (caller: TestUser) =>
      (await profileList<{ data: Json[] }>(caller, uploader.username, 'media')).body.data.map((m) => m.id);
    expect(await listed(outsider)).toEqual([]);
    expect(await listed(insider)).toEqual([ids.comment, ids.secret]);
  });
});
