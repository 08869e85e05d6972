import { waitForNotificationCount } from '../support/notifications.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { expectError } from '../support/feeds.ts';
import { follow, getMyProfile, getProfile, type Json, profileList, unfollow } from '../support/profiles.ts';

/**
 * Follows: idempotent follow and unfollow, no following yourself, the follower and following lists (paginator B
 * of member summaries), `new_follower` to the followed member, and counters exact under concurrency.
 */

let star: TestUser;
let fan: TestUser;

beforeAll(async () => {
  [star, fan] = await Promise.all([createTestUser(), createTestUser()]);
});

const countsOf = async (user: TestUser) => {
  const profile = (await getMyProfile(user)).body.profile;
  return { followers: profile.followers_count, followings: profile.followings_count };
};

describe('POST and DELETE /profile/{username}/follow', () => {
  it('follows once however often it is asked, and unfollows the same way', async () => {
    const first = await follow(fan, star.username);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toEqual({ user_id: star.id, following: true, followers_count: 1 });
    expect((await follow(fan, star.username.toUpperCase())).body.data.followers_count).toBe(1);
    expect(await countsOf(star)).toEqual({ followers: 1, followings: 0 });
    expect(await countsOf(fan)).toEqual({ followers: 0, followings: 1 });

    const gone = await unfollow(fan, star.username);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body.data).toEqual({ user_id: star.id, following: false, followers_count: 0 });
    expect((await unfollow(fan, star.username)).body.data.followers_count).toBe(0);
    expect(await countsOf(star)).toEqual({ followers: 0, followings: 0 });
    expect(await countsOf(fan)).toEqual({ followers: 0, followings: 0 });
  });

  it('refuses following yourself (400), unknown users (404) and malformed names (400)', async () => {
    expectError(await follow(fan, fan.username), 400, 'rest_invalid_param');
    expectError(await unfollow(fan, fan.username), 400, 'rest_invalid_param');
    expectError(await follow(fan, 'nobody_has_this_name_y'), 404, 'user_not_found');
    expectError(await follow(fan, 'bad.name'), 400, 'invalid_username');
    expect(await countsOf(fan)).toEqual({ followers: 0, followings: 0 });
  });

  it('item 10: refuses a malformed JSON body or unknown keys (the routes take no body), and follows nobody', async () => {
    for (const method of ['POST', 'DELETE'] as const) {
      const path = `/profile/${star.username}/follow`;
      const json = { 'content-type': 'application/json' };
      expectError(
        await api(method, path, { as: fan, rawBody: '{"a":', headers: json }),
        400,
        'rest_invalid_json',
      );
      const unknown = await api(method, path, { as: fan, body: { notify: false } });
      expectError(unknown, 400, 'rest_invalid_param');
      expect(unknown.body).toMatchObject({ data: { params: { notify: 'is not a known field' } } });
      expectError(await api(method, path, { as: fan, body: [] }), 400, 'rest_invalid_param');
    }
    expect(await countsOf(star)).toEqual({ followers: 0, followings: 0 });
    // An empty object is no field at all.
    expect((await api('POST', `/profile/${star.username}/follow`, { as: fan, body: {} })).status).toBe(200);
    expect((await api('DELETE', `/profile/${star.username}/follow`, { as: fan, body: {} })).status).toBe(200);
  });

  it('notifies the followed member once (new_follower), never on a repeated follow', async () => {
    const [followed, follower] = await Promise.all([createTestUser(), createTestUser()]);
    await follow(follower, followed.username);
    await follow(follower, followed.username);
    // A repeated follow records no event: once the first one's notification is stored, nothing else comes.
    const listed = await waitForNotificationCount(followed, 1, { type: 'new_follower' });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      type: 'new_follower',
      actor_id: follower.id,
      user_id: followed.id,
    });
  });

  it('keeps followers_count exact: 20 concurrent follows and 10 concurrent unfollows leave 10', async () => {
    const target = await createTestUser();
    const followers = await Promise.all(Array.from({ length: 20 }, () => createTestUser()));
    // Each follower asks twice at once: the duplicates must not count either.
    const follows = await Promise.all(
      [...followers, ...followers].map((user) => follow(user, target.username)),
    );
    for (const response of follows) expect(response.status, response.text).toBe(200);
    const leaving = followers.slice(0, 10);
    const unfollows = await Promise.all(
      [...leaving, ...leaving].map((user) => unfollow(user, target.username)),
    );
    for (const response of unfollows) expect(response.status, response.text).toBe(200);
    expect((await getProfile(fan, target.username)).body.profile.followers_count).toBe(10);
    for (const user of followers.slice(9, 11)) {
      expect((await getMyProfile(user)).body.profile.followings_count).toBe(user === followers[9] ? 0 : 1);
    }
    const list = await profileList<{ followers: Json }>(fan, target.username, 'followers', { per_page: 100 });
    expect(list.body.followers.total).toBe(10);
    expect(list.body.followers.data.map((member: Json) => member.user_id).sort()).toEqual(
      followers
        .slice(10)
        .map((user) => user.id)
        .sort(),
    );
  });
});

describe('GET /profile/{username}/followers and /followings', () => {
  it('answers paginator B of member summaries, pages with a cursor, and counts exactly', async () => {
    const hub = await createTestUser();
    const fans = await Promise.all(Array.from({ length: 3 }, () => createTestUser()));
    for (const user of fans) await follow(user, hub.username);
    await follow(hub, fans[0]!.username);

    const first = await profileList<{ followers: Json }>(fan, hub.username, 'followers', { per_page: 2 });
    expect(first.status, first.text).toBe(200);
    const page = first.body.followers;
    expect(page).toMatchObject({ current_page: 1, per_page: 2, total: 3, last_page: 2, from: 1, to: 2 });
    expect(Object.keys(page.data[0]).sort()).toEqual(
      [
        'user_id',
        'total_points',
        'is_verified',
        'status',
        'display_name',
        'username',
        'avatar',
        'created_at',
        'short_description',
        'meta',
        'badge',
      ].sort(),
    );
    expect(page.next_page_url).toContain('cursor=');
    const second = await api<{ followers: Json }>('GET', page.next_page_url, { as: fan });
    expect(second.body.followers.data).toHaveLength(1);
    const ids = [...page.data, ...second.body.followers.data].map((member: Json) => member.user_id);
    expect(ids).toEqual(fans.map((user) => user.id).sort((a, b) => a - b));

    const followings = await profileList<{ followings: Json }>(fan, hub.username, 'followings');
    expect(followings.body.followings).toMatchObject({ total: 1, current_page: 1, per_page: 20 });
    expect(followings.body.followings.data[0].user_id).toBe(fans[0]!.id);
  });

  it('refuses bad paging and unknown users', async () => {
    expectError(
      await profileList(fan, star.username, 'followers', { per_page: 101 }),
      400,
      'rest_invalid_param',
    );
    expectError(await profileList(fan, 'nobody_has_this_name_z', 'followings'), 404, 'user_not_found');
  });
});
