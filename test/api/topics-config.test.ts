import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTopicsConfig as storedConfig } from '../../shared/domain/topics/topics-config.ts';
import { api, createTestUser, type TestUser } from '../support/api.ts';
import { expectError } from '../support/topics.ts';

/**
 * GET and POST /admin/topics/config through the local gateway. The configuration is one record for the whole
 * table, and the feeds tests enforce its rules concurrently: this file changes only the fields no feed rule reads
 * (`display_style`, `display_on_feed`, `user_can_create`), sends the rule fields only with the values in force,
 * and restores what it changed.
 */

let admin: TestUser;
let member: TestUser;
beforeAll(async () => {
  [admin, member] = await Promise.all([createTestUser({ hostRole: 'administrator' }), createTestUser()]);
});

const get = (as?: TestUser) => api<Record<string, unknown>>('GET', '/admin/topics/config', as ? { as } : {});
const post = (as: TestUser | undefined, body: unknown) =>
  api<Record<string, unknown>>('POST', '/admin/topics/config', { ...(as ? { as } : {}), body });

describe('who may read and change it', () => {
  it('anonymous → 401, a member → 403 (and nothing changes)', async () => {
    expectError(await get(), 401, 'rest_not_logged_in');
    expectError(await post(undefined, {}), 401, 'rest_not_logged_in');
    expectError(await get(member), 403, 'rest_forbidden');
    const before = await storedConfig();
    expectError(await post(member, { display_style: 'label' }), 403, 'rest_forbidden');
    expect((await storedConfig()).display_style).toBe(before.display_style);
  });
});

describe('GET /admin/topics/config', () => {
  it('answers the configuration record, every field typed', async () => {
    const response = await get(admin);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      [
        'allow_multiple',
        'display_on_feed',
        'display_style',
        'enabled',
        'max_topics_per_post',
        'required_for_posts',
        'user_can_create',
      ].sort(),
    );
    expect(response.body).toMatchObject({
      enabled: expect.any(Boolean),
      required_for_posts: expect.any(Boolean),
      allow_multiple: expect.any(Boolean),
      max_topics_per_post: expect.any(Number),
      user_can_create: expect.any(Boolean),
      display_on_feed: expect.any(Boolean),
      display_style: expect.stringMatching(/^(badge|tag|label)$/),
    });
    expect(response.body).toEqual(await storedConfig());
  });
});

describe('POST /admin/topics/config', () => {
  let original: Awaited<ReturnType<typeof storedConfig>>;
  beforeAll(async () => {
    original = await storedConfig();
  });
  afterAll(async () => {
    const { display_style, display_on_feed, user_can_create } = original;
    await post(admin, { display_style, display_on_feed, user_can_create });
  });

  it('sets the fields sent, keeps the others, answers the rule fields now in force', async () => {
    const style = original.display_style === 'tag' ? 'label' : 'tag';
    const response = await post(admin, {
      display_style: style,
      display_on_feed: !original.display_on_feed,
      user_can_create: !original.user_can_create,
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      ['allow_multiple', 'enabled', 'max_topics_per_post', 'message', 'required_for_posts'].sort(),
    );
    expect(response.body.message).toBe('Topic configuration has been updated successfully.');
    const now = await get(admin);
    expect(now.body).toMatchObject({
      display_style: style,
      display_on_feed: !original.display_on_feed,
      user_can_create: !original.user_can_create,
    });
    expect(response.body).toEqual({
      enabled: now.body.enabled,
      required_for_posts: now.body.required_for_posts,
      allow_multiple: now.body.allow_multiple,
      max_topics_per_post: now.body.max_topics_per_post,
      message: response.body.message,
    });
  });

  it('accepts the rule fields (sent with the values in force) and an empty body', async () => {
    const current = await storedConfig();
    const rules = {
      enabled: current.enabled,
      required_for_posts: current.required_for_posts,
      allow_multiple: current.allow_multiple,
      max_topics_per_post: current.max_topics_per_post,
    };
    const response = await post(admin, rules);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject(rules);
    expect((await post(admin, {})).status).toBe(200);
  });

  it.each([
    ['max_topics_per_post 0', { max_topics_per_post: 0 }, 'max_topics_per_post'],
    ['max_topics_per_post 21', { max_topics_per_post: 21 }, 'max_topics_per_post'],
    ['max_topics_per_post 2.5', { max_topics_per_post: 2.5 }, 'max_topics_per_post'],
    ['max_topics_per_post "3"', { max_topics_per_post: '3' }, 'max_topics_per_post'],
    ['display_style other', { display_style: 'chip' }, 'display_style'],
    ['enabled "yes"', { enabled: 'yes' }, 'enabled'],
    ['an unknown field', { max_topics_per_space: 3 }, 'max_topics_per_space'],
  ])('%s → 400 rest_invalid_param, nothing changes', async (_name, body, field) => {
    const before = await storedConfig();
    const error = expectError(
      await post(admin, { display_style: 'label', ...body }),
      400,
      'rest_invalid_param',
    );
    expect(Object.keys(error.data.params as object)).toEqual([field]);
    expect((await storedConfig()).display_style).toBe(before.display_style);
  });
});
