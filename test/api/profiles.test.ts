import { beforeAll, describe, expect, it } from 'vitest';
import { setUserStatus } from '../../shared/domain/users/index.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { createSpace, expectError, feedSwept, ISO, postFeed } from '../support/feeds.ts';
import { getMyProfile, getProfile, type Json, updateMyProfile } from '../support/profiles.ts';

/**
 * GET /profile/{username}, GET /profile/me, PUT /profile/me: every field with the contract's type, private fields
 * null for other members, suspended profiles, case-insensitive usernames, URL validation with nothing changed.
 */

let owner: TestUser;
let other: TestUser;
let moderator: TestUser;
let suspended: TestUser;

beforeAll(async () => {
  [owner, other, moderator, suspended] = await Promise.all([
    createTestUser({ displayName: 'Owner Person' }),
    createTestUser(),
    createTestUser({ communityRole: 'moderator' }),
    createTestUser(),
  ]);
  await setUserStatus(suspended.id, 'suspended');
});

const PRIVATE = ['email', 'first_name', 'last_name', 'can_change_username', 'can_change_email'];

function expectProfileShape(profile: Json) {
  expect(Object.keys(profile).sort()).toEqual(
    [
      'user_id',
      'username',
      'display_name',
      'first_name',
      'last_name',
      'email',
      'avatar',
      'cover_photo',
      'short_description',
      'short_description_rendered',
      'location',
      'website',
      'social_links',
      'status',
      'is_verified',
      'badge_slugs',
      'total_points',
      'compilation_score',
      'followers_count',
      'followings_count',
      'created_at',
      'last_activity',
      'can_change_username',
      'can_change_email',
      'canViewUserSpaces',
      'profile_navs',
      'profile_nav_actions',
    ].sort(),
  );
  for (const name of ['user_id', 'is_verified', 'total_points', 'compilation_score', 'followers_count']) {
    expect(Number.isInteger(profile[name]), name).toBe(true);
  }
  expect(Number.isInteger(profile.followings_count)).toBe(true);
  for (const name of ['username', 'display_name', 'avatar', 'cover_photo', 'short_description', 'website']) {
    expect(typeof profile[name], name).toBe('string');
  }
  expect(typeof profile.short_description_rendered).toBe('string');
  expect(profile.created_at).toMatch(ISO);
  expect(profile.last_activity).toMatch(ISO);
  expect(typeof profile.social_links).toBe('object');
  expect(Array.isArray(profile.badge_slugs)).toBe(true);
  expect(typeof profile.canViewUserSpaces).toBe('boolean');
  expect(profile.profile_nav_actions).toEqual([]);
  expect(profile.profile_navs.length).toBeGreaterThan(0);
  for (const nav of profile.profile_navs) {
    expect(Object.keys(nav).sort()).toEqual(['route', 'slug', 'title', 'url']);
    expect(typeof nav.route.name).toBe('string');
  }
}

describe('GET /profile/{username}', () => {
  it('answers every field to another member, private fields null', async () => {
    const response = await getProfile(other, owner.username);
    expect(response.status, response.text).toBe(200);
    const profile = response.body.profile;
    expectProfileShape(profile);
    expect(profile).toMatchObject({
      user_id: owner.id,
      username: owner.username,
      display_name: 'Owner Person',
    });
    for (const name of PRIVATE) expect(profile[name], name).toBeNull();
  });

  it('shows the private fields to the owner and to community moderators', async () => {
    for (const caller of [owner, moderator]) {
      const profile = (await getProfile(caller, owner.username)).body.profile;
      expectProfileShape(profile);
      expect(profile.email).toBe(`${owner.username}@example.com`);
      expect(typeof profile.first_name).toBe('string');
      expect(profile.can_change_username).toBe(false);
      expect(profile.can_change_email).toBe(false);
    }
  });

  it('matches the username case-insensitively', async () => {
    const response = await getProfile(other, owner.username.toUpperCase());
    expect(response.status, response.text).toBe(200);
    expect(response.body.profile.user_id).toBe(owner.id);
  });

  it('answers 404 user_not_found and 400 invalid_username', async () => {
    expectError(await getProfile(other, 'nobody_has_this_name_x'), 404, 'user_not_found');
    expectError(await getProfile(other, 'bad.name'), 400, 'invalid_username');
    expectError(await getProfile(other, 'a'.repeat(101)), 400, 'invalid_username');
  });

  it('refuses a suspended profile to members (403) and shows it to moderators', async () => {
    const refused = await getProfile(other, suspended.username);
    expectError(refused, 403, 'rest_forbidden');
    expect((refused.body as Json).message).toBe('This profile is not active.');
    const seen = await getProfile(moderator, suspended.username);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.profile.status).toBe('suspended');
  });
});

describe('GET /profile/me', () => {
  it('equals the caller’s own profile', async () => {
    const me = await getMyProfile(owner);
    expect(me.status, me.text).toBe(200);
    expectProfileShape(me.body.profile);
    expect(me.body.profile).toEqual((await getProfile(owner, owner.username)).body.profile);
  });
});

describe('PUT /profile/me', () => {
  it('updates, answers message and data, and the profile shows it (bio rendered)', async () => {
    const user = await createTestUser();
    const response = await updateMyProfile(user, {
      display_name: 'New Name',
      bio: 'Hello **world**',
      website: 'https://example.com/me',
      location: 'Lisbon',
      social_links: { github: 'https://github.com/someone', twitter: 'https://twitter.com/x' },
    });
    expect(response.status, response.text).toBe(200);
    expect(typeof response.body.message).toBe('string');
    expect(Object.keys(response.body.data).sort()).toEqual(['bio', 'display_name', 'id', 'updated_at']);
    expect(response.body.data).toMatchObject({
      id: user.id,
      display_name: 'New Name',
      bio: 'Hello **world**',
    });
    expect(response.body.data.updated_at).toMatch(ISO);
    const profile = (await getMyProfile(user)).body.profile;
    expect(profile).toMatchObject({
      display_name: 'New Name',
      short_description: 'Hello **world**',
      website: 'https://example.com/me',
      location: 'Lisbon',
      social_links: { github: 'https://github.com/someone', twitter: 'https://twitter.com/x' },
    });
    expect(profile.short_description_rendered).toContain('<strong>world</strong>');
    expect(profile.compilation_score).toBe(50);
  });

  it('refuses an invalid website, avatar, cover photo or social link (invalid_url naming it), changing nothing', async () => {
    const user = await createTestUser();
    const before = (await getMyProfile(user)).body.profile;
    for (const [body, field] of [
      [{ website: 'not a url' }, 'website'],
      [{ avatar: 'javascript:alert(1)' }, 'avatar'],
      [{ cover_photo: 'ftp://example.com/x.png' }, 'cover_photo'],
      [{ social_links: { twitter: 'twitter.com/x' } }, 'social_links.twitter'],
    ] as const) {
      const response = await updateMyProfile(user, { display_name: 'Changed', ...body });
      expectError(response, 400, 'invalid_url');
      expect((response.body as Json).data.field).toBe(field);
    }
    expect((await getMyProfile(user)).body.profile).toEqual(before);
  });

  it('refuses unknown social keys and unknown fields (rest_invalid_param), changing nothing', async () => {
    const user = await createTestUser();
    const before = (await getMyProfile(user)).body.profile;
    const social = await updateMyProfile(user, {
      bio: 'x',
      social_links: { myspace: 'https://myspace.com/x' },
    });
    expect(Object.keys(expectError(social, 400, 'rest_invalid_param') as object)).toEqual([
      'social_links.myspace',
    ]);
    expectError(await updateMyProfile(user, { bio: 'x', username: 'taken' }), 400, 'rest_invalid_param');
    expectError(await updateMyProfile(user, { bio: 'é'.repeat(2501) }), 400, 'rest_invalid_param');
    expect((await getMyProfile(user)).body.profile).toEqual(before);
  });
});

describe('total_points', () => {
  it('is maintained on write: 5 per published feed, 2 per published comment, taken back on delete', async () => {
    const [author, reader] = await Promise.all([createTestUser(), createTestUser()]);
    const pointsOf = async (user: TestUser) =>
      (await getProfile(reader, user.username)).body.profile.total_points;
    const feed = await postFeed(author, { title: 'points' });
    await postFeed(author, { status: 'draft' });
    const comment = await api('POST', `/feeds/${feed.id}/comments`, {
      as: author,
      body: { message: 'mine' },
    });
    expect(comment.status, comment.text).toBe(201);
    expect(await pointsOf(author)).toBe(7);
    const removed = await api('DELETE', `/feeds/${feed.id}`, { as: author });
    expect(removed.status, removed.text).toBe(200);
    // The feed's 5 go with it at once; the comment's 2 when the `feeds` worker has swept its comments.
    await feedSwept(feed.id);
    expect(await pointsOf(author)).toBe(0);
  });
});

describe('PUT /profile/me display_name', () => {
  it('re-lists the member under the new name in the space user search, and not under the old one', async () => {
    const tag = `rn${Date.now().toString(36)}`;
    const [renamed, spaceAdmin] = await Promise.all([
      createTestUser({ displayName: `${tag}old Name` }),
      createTestUser(),
    ]);
    const spaceId = await createSpace({ members: [[spaceAdmin, 'admin']] });
    const found = async (search: string) => {
      const response = await api<{ users: { data: { ID: number }[] } }>('GET', '/spaces/users/search', {
        as: spaceAdmin,
        query: { space_id: spaceId, search },
      });
      expect(response.status, response.text).toBe(200);
      return response.body.users.data.map((user) => user.ID);
    };
    expect(await found(`${tag}old`)).toEqual([renamed.id]);
    expect((await updateMyProfile(renamed, { display_name: `${tag}new Name` })).status).toBe(200);
    expect(await found(`${tag}new`)).toEqual([renamed.id]);
    expect(await found(`${tag}old`)).toEqual([]);
  });
});
