import { beforeAll, describe, expect, it } from 'vitest';
import { putAction, transactWrite } from '../../shared/db/transact.ts';
import { storedMembership } from '../../shared/domain/spaces/space-item.ts';
import { setUserStatus } from '../../shared/domain/users/index.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import {
  createSpace,
  expectError,
  type Feed,
  ISO,
  listFeeds,
  postComment,
  postFeed,
} from '../support/feeds.ts';
import { follow, type Json, profileList } from '../support/profiles.ts';

/**
 * The member lists of a profile: spaces (active memberships, secret spaces, hidden member counts), comments
 * (paginator B, visibility-aware exact totals), `/feeds?username=`, and inactive profiles. Media: profiles-media.test.ts.
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

const comment = postComment;

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
